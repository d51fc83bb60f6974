package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
)

// projectCmd runs `project create --name NAME`: it creates a project with
// one application key and prints {"project_id","app_id","app_token"}.
func projectCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprint(stderr, "usage: promoengine project create --name NAME [--database-url URL]\n")
		return errUsage
	}
	fs := flag.NewFlagSet("project create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg dbConfig
	cfg.bind(fs, getenv)
	name := fs.String("name", "", "name of the new project (required)")
	if ok, err := parseFlags(fs, args[1:]); !ok {
		return err
	}
	if *name == "" {
		fmt.Fprint(stderr, "project create: --name is required\n")
		return errUsage
	}
	log, err := cfg.logger(stderr)
	if err != nil {
		return err
	}
	db, err := openAndMigrate(ctx, cfg, entdb.Options{}, log)
	if err != nil {
		return err
	}
	defer db.Close()
	var creds access.ProjectCredentials
	err = graph.InTx(entdb.WithDialect(ent.NewContext(ctx, db.Client), db.Dialect), func(ctx context.Context) error {
		creds, err = access.CreateProject(ctx, *name, "", "")
		return err
	})
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(creds)
}
