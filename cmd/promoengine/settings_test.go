package main

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestREADMEConfigurationTableMatchesTheSettings: the README's
// configuration table, `promoengine help` and `serve --help` list the same
// variables and flags as the settings table, so none can be added to one
// and forgotten in another.
func TestREADMEConfigurationTableMatchesTheSettings(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Z][A-Z0-9_]+)` \\| (?:`--([a-z-]+)`|—) \\|")
	documented := map[string]string{} // variable → flag ("" for none)
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		if _, dup := documented[m[1]]; dup {
			t.Errorf("README lists %s twice", m[1])
		}
		documented[m[1]] = m[2]
	}
	if len(documented) == 0 {
		t.Fatal("no configuration table found in the README")
	}

	var helpOut, helpErr, serveOut, serveErr syncBuffer
	if err := run(context.Background(), []string{"help"}, env(nil), &helpOut, &helpErr); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"serve", "--help"}, env(nil), &serveOut, &serveErr); err != nil {
		t.Fatal(err)
	}
	flags := map[string]bool{}
	for _, s := range allSettings() {
		flag, ok := documented[s.Env]
		switch {
		case !ok:
			t.Errorf("%s (--%s) is missing from the README's configuration table", s.Env, s.Flag)
		case flag != s.Flag:
			t.Errorf("README gives %s the flag %q, the settings %q", s.Env, flag, s.Flag)
		}
		delete(documented, s.Env)
		if !strings.Contains(helpOut.String(), "  "+s.Env+" ") {
			t.Errorf("promoengine help does not list %s", s.Env)
		}
		if !strings.Contains(serveErr.String(), s.Env) {
			t.Errorf("serve --help does not mention %s", s.Env)
		}
		if s.Flag != "" {
			if flags[s.Flag] {
				t.Errorf("flag --%s declared twice", s.Flag)
			}
			flags[s.Flag] = true
			if !strings.Contains(serveErr.String(), "  -"+s.Flag+" ") && !strings.Contains(serveErr.String(), "  -"+s.Flag+"\n") {
				t.Errorf("serve --help does not list --%s", s.Flag)
			}
		}
	}
	for v := range documented {
		t.Errorf("README documents %s, which no setting reads", v)
	}
}

// TestMalformedSettingNamesTheVariable: a value that does not parse stops
// serve with the variable's name, for every number, duration and boolean
// of the table.
func TestMalformedSettingNamesTheVariable(t *testing.T) {
	typed := 0
	for _, s := range allSettings() {
		_, intErr := strconv.Atoi(s.Default)
		_, durErr := time.ParseDuration(s.Default)
		_, boolErr := strconv.ParseBool(s.Default)
		if s.bind == nil || (intErr != nil && durErr != nil && boolErr != nil) {
			continue // text: any value parses
		}
		typed++
		var out, errOut syncBuffer
		err := run(context.Background(), []string{"serve"}, env(map[string]string{s.Env: "four"}), &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), s.Env) {
			t.Errorf("%s=four: %v, want an error naming the variable", s.Env, err)
		}
	}
	if typed < 15 {
		t.Errorf("only %d typed settings found", typed)
	}
}
