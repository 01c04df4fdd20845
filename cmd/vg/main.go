// Command vg generates ML-DSA (FIPS 204) keys, signs, verifies, measures
// the speed of the implementation in use, and prints the proof report of
// the generated assembly.
//
// Usage:
//
//	vg keygen -params ML-DSA-44|65|87 -out key.pem [-pub pub.pem] [-format pem|der|raw] [-sk-form seed|expanded|both] [-force]
//	vg sign   -key key.pem -in msg [-out sig [-force]] [-context str | -context-hex hex] [-prehash name] [-deterministic] [-format raw|base64|hex] [-params p]
//	vg verify -pub pub.pem -in msg -sig sig [-context str | -context-hex hex] [-prehash name] [-format auto|raw|base64|hex] [-params p]
//	vg pub    -key key.pem [-out pub.pem [-force]] [-format pem|der|raw] [-params p]
//	vg bench  [-time 1s] [-markdown] [-paths]
//	vg prove  [-json] [-v] [-routine names [-no-callees]] [-n runs] [-one-build] [-first-failure] [-asm dir] [-cpuprofile file]
//
// Exit status: 0 on success, 1 on failure (including an invalid
// signature), 2 on a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// stdio is where a command reads and writes; tests substitute buffers.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

type command struct {
	name    string
	summary string
	run     func(args []string, s *stdio) error
}

var commands = []command{
	{"keygen", "generate a key pair", runKeygen},
	{"sign", "sign a message", runSign},
	{"verify", "verify a signature", runVerify},
	{"pub", "write the public key of a private key", runPub},
	{"bench", "time KeyGen, Sign and Verify for each parameter set", runBench},
	{"prove", "check the assembly routines and print the proof report", runProve},
}

// usageError marks errors in the command line (exit status 2).
type usageError struct {
	msg     string
	printed bool // the flag package already printed it with the usage text
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// errSignatureInvalid is what verify returns for a well-formed request
// whose signature does not verify.
var errSignatureInvalid = errors.New("signature invalid")

func main() {
	os.Exit(run(os.Args[1:], &stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: vg <command> [flags]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-7s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'vg <command> -h' for the flags of a command.\n")
}

// run executes one command line and returns the exit status.
func run(args []string, s *stdio) int {
	if len(args) == 0 {
		printUsage(s.err)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) == 2 && name == "help" {
			// "vg help sign" is "vg sign -h".
			return run([]string{args[1], "-h"}, s)
		}
		printUsage(s.out)
		return 0
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		err := c.run(args[1:], s)
		var ue *usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue) && ue.printed:
			return 2
		case errors.As(err, &ue):
			fmt.Fprintf(s.err, "vg %s: %v\nRun 'vg %s -h' for usage.\n", name, err, name)
			return 2
		default:
			fmt.Fprintf(s.err, "vg %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(s.err, "vg: unknown command %q\n", name)
	printUsage(s.err)
	return 2
}

// newFlagSet makes a flag set whose -h prints synopsis, description and flags.
func newFlagSet(s *stdio, name, synopsis, description string) *flag.FlagSet {
	fs := flag.NewFlagSet("vg "+name, flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: vg %s %s\n\n%s\n\nflags:\n", name, synopsis, strings.TrimSpace(description))
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and rejects positional arguments. Errors from the
// flag package were already printed with the usage text.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{msg: err.Error(), printed: true}
	}
	if fs.NArg() != 0 {
		return usagef("unexpected argument %q (flags come before arguments; all inputs are given by flags)", fs.Arg(0))
	}
	return nil
}
