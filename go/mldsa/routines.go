package mldsa

// Dispatch of the routines beyond the four of routines_amd64.go and
// routines_noasm.go. Each is a variable holding its generic implementation;
// a file that adds an assembly variant assigns it in an init function
// (after checking the CPU features in cpu_amd64.go) and registers it in the
// table of variants.go. All variants of a routine share its signature.
var (
	ntt            = nttGeneric
	nttInverse     = nttInverseGeneric
	multiplyNTT    = multiplyNTTGeneric
	multiplyAccNTT = multiplyAccNTTGeneric
	normExceeds    = normExceedsGeneric
	lowBitsExceed  = lowBitsExceedGeneric
)
