//go:build !amd64 || purego

package bench

func routineList() []Routine { return nil }
func routinesUsable() bool   { return false }
