package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// printVersion writes the build's one-line description (see versionLine).
func printVersion(w io.Writer) {
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintln(w, versionLine(info, ok))
}

// versionLine describes a build from its build information: module
// version, VCS revision, commit time and whether the tree had uncommitted
// changes, and the Go version, e.g.
//
//	promoengine (devel) rev 1609b9c0d5e1… 2026-11-23T13:00:00Z modified=false go1.26.8
//
// Builds without VCS stamping (go build -buildvcs=false, go run, tests)
// say "rev unknown".
func versionLine(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "promoengine (unknown build)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	line := "promoengine " + version
	if rev := settings["vcs.revision"]; rev != "" {
		line += " rev " + rev
		if t := settings["vcs.time"]; t != "" {
			line += " " + t
		}
		if m := settings["vcs.modified"]; m != "" {
			line += " modified=" + m
		}
	} else {
		line += " rev unknown"
	}
	if info.GoVersion != "" {
		line += " " + info.GoVersion
	}
	return line
}
