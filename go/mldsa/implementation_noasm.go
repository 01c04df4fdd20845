//go:build !amd64 || purego

package mldsa

func implementation() string { return "pure Go" }
