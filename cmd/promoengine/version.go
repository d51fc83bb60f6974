package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// Set at link time by scripts/build (and so by scripts/release and CI):
//
//	go build -ldflags "-X main.version=0.1.0 -X main.commit=<sha> -X main.date=<RFC 3339>"
//
// A build without them (go run, a plain go build) falls back to the VCS
// stamping of runtime/debug.
var (
	version string
	commit  string
	date    string
)

// stamp is the version, commit and date set by -ldflags -X.
type stamp struct{ Version, Commit, Date string }

// linked returns the stamp the linker set (empty fields when none).
func linked() stamp { return stamp{Version: version, Commit: commit, Date: date} }

// printVersion writes the build's one-line description (see versionLine).
func printVersion(w io.Writer) {
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintln(w, versionLine(linked(), info, ok))
}

// versionLine describes a build: the version, commit and commit date
// stamped at link time when present, else the module version, VCS
// revision, commit time and whether the tree had uncommitted changes from
// the build information; then the Go version, e.g.
//
//	promoengine 0.1.0 rev 1609b9c0d5e1… 2026-11-23T13:00:00Z go1.26.8
//	promoengine (devel) rev 1609b9c0d5e1… 2026-11-23T13:00:00Z modified=false go1.26.8
//
// Builds with neither (go build -buildvcs=false, go run, tests) say
// "rev unknown".
func versionLine(s stamp, info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		info = &debug.BuildInfo{}
		if s.Version == "" {
			return "promoengine (unknown build)"
		}
	}
	settings := map[string]string{}
	for _, set := range info.Settings {
		settings[set.Key] = set.Value
	}
	line := "promoengine "
	switch {
	case s.Version != "":
		line += s.Version
	case info.Main.Version != "":
		line += info.Main.Version
	default:
		line += "(devel)"
	}
	switch {
	case s.Commit != "":
		line += " rev " + s.Commit
		if s.Date != "" {
			line += " " + s.Date
		}
	case settings["vcs.revision"] != "":
		line += " rev " + settings["vcs.revision"]
		if t := settings["vcs.time"]; t != "" {
			line += " " + t
		}
		if m := settings["vcs.modified"]; m != "" {
			line += " modified=" + m
		}
	default:
		line += " rev unknown"
	}
	if info.GoVersion != "" {
		line += " " + info.GoVersion
	}
	return line
}
