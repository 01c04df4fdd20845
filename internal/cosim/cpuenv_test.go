//go:build cpu_features_env

package cosim

// The cpu_features_env test run repeats the default one (the harness does
// not depend on the tag): it cosimulates fewer states, since the default
// run already covered the full count.
func init() { reducedRun = true }
