//go:build !amd64 || purego

package cosim

// cases and tables are empty where there is no harness.
var (
	cases  []Case
	tables []Table
	frames []Frame
)
