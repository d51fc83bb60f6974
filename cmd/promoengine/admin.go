package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
)

// adminCommand is one operator subcommand acting on one project: it gets
// flags bound, then runs in one transaction scoped to the project and
// returns what to print as JSON.
type adminCommand struct {
	usage string
	flags func(fs *flag.FlagSet) func(ctx context.Context) (any, error)
}

// runAdmin parses args for cmd, opens the database and runs it for --project.
func runAdmin(ctx context.Context, name string, cmd adminCommand, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(stderr, "usage: promoengine %s\n", cmd.usage); fs.PrintDefaults() }
	var cfg dbConfig
	cfg.bind(fs, getenv)
	project := fs.String("project", "", "project id (required)")
	run := cmd.flags(fs)
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if *project == "" {
		fmt.Fprintf(stderr, "%s: --project is required\n", name)
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
	var out any
	base := entdb.WithDialect(ent.NewContext(ctx, db.Client), db.Dialect)
	err = graph.InTx(base, func(ctx context.Context) error {
		ctx, _, err := access.ManageProject(ctx, *project, "")
		if err != nil {
			return err
		}
		out, err = run(ctx)
		return err
	})
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// dispatch runs the subcommand named by args[0] from cmds.
func dispatch(ctx context.Context, group string, cmds map[string]adminCommand, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if cmd, ok := cmds[args[0]]; ok {
			return runAdmin(ctx, group+" "+args[0], cmd, args[1:], getenv, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "usage:\n")
	for _, name := range slices.Sorted(maps.Keys(cmds)) {
		fmt.Fprintf(stderr, "  promoengine %s\n", cmds[name].usage)
	}
	return errUsage
}

// keyJSON is an application key as the CLI prints it (the token only
// after create and regenerate).
type keyJSON struct {
	AppID      string   `json:"app_id"`
	AppToken   string   `json:"app_token,omitempty"`
	Name       string   `json:"name"`
	Status     string   `json:"status"`
	AllowedIPs []string `json:"allowed_ips"`
	ProjectID  string   `json:"project_id"`
	Side       string   `json:"side"`
}

func keyOut(k *ent.AppKey, token string) keyJSON {
	ips := k.AllowedIps
	if ips == nil {
		ips = []string{}
	}
	return keyJSON{AppID: k.ID, AppToken: token, Name: k.Name, Status: k.Status.String(), AllowedIPs: ips, ProjectID: k.ProjectID, Side: k.Side.String()}
}

// keySide is the side a --client flag selects.
func keySide(client bool) appkey.Side {
	if client {
		return appkey.SideCLIENT
	}
	return appkey.SideSERVER
}

// keyCommands are `promoengine key …`: the application key lifecycle (the
// same use cases as /management/v1/projects/{id}/api-keys).
var keyCommands = map[string]adminCommand{
	"create": {"key create --project P [--client] [--name N] [--allowed-ips IP,CIDR,…]", func(fs *flag.FlagSet) func(context.Context) (any, error) {
		name := fs.String("name", "default", "key name")
		ips := fs.String("allowed-ips", "", "comma-separated IPs/CIDRs the key may be used from (default: any)")
		client := fs.Bool("client", false, "create a client-side key (/client/v1 from the project's trusted domains)")
		return func(ctx context.Context) (any, error) {
			k, err := access.CreateAppKey(ctx, access.AppKeyInput{Name: name, AllowedIPs: splitList(*ips), Side: keySide(*client)})
			if err != nil {
				return nil, err
			}
			return keyOut(k.Key, k.Token), nil
		}
	}},
	"list": {"key list --project P [--client]", func(fs *flag.FlagSet) func(context.Context) (any, error) {
		client := fs.Bool("client", false, "list the client-side keys instead of the server-side ones")
		return func(ctx context.Context) (any, error) {
			keys, err := access.AppKeys(ctx, keySide(*client))
			out := make([]keyJSON, len(keys))
			for i, k := range keys {
				out[i] = keyOut(k, "")
			}
			return out, err
		}
	}},
	"block":   statusCommand(true),
	"unblock": statusCommand(false),
	"regenerate": {"key regenerate --project P --app-id ID", withAppID(func(ctx context.Context, id string) (any, error) {
		k, err := access.RegenerateAppKey(ctx, id)
		if err != nil {
			return nil, err
		}
		return keyOut(k.Key, k.Token), nil
	})},
	"delete": {"key delete --project P --app-id ID", withAppID(func(ctx context.Context, id string) (any, error) {
		return map[string]string{"deleted": id}, access.DeleteAppKey(ctx, id)
	})},
	"allow-ips": {"key allow-ips --project P --app-id ID --allowed-ips IP,CIDR,… (empty: any)", func(fs *flag.FlagSet) func(context.Context) (any, error) {
		id := fs.String("app-id", "", "application key id (required)")
		ips := fs.String("allowed-ips", "", "comma-separated IPs/CIDRs; empty allows any address")
		return func(ctx context.Context) (any, error) {
			list := splitList(*ips)
			if list == nil {
				list = []string{}
			}
			k, err := access.UpdateAppKey(ctx, *id, access.AppKeyInput{AllowedIPs: list})
			if err != nil {
				return nil, err
			}
			return keyOut(k, ""), nil
		}
	}},
}

func statusCommand(blocked bool) adminCommand {
	verb := "unblock"
	if blocked {
		verb = "block"
	}
	return adminCommand{"key " + verb + " --project P --app-id ID", withAppID(func(ctx context.Context, id string) (any, error) {
		k, err := access.SetAppKeyStatus(ctx, id, blocked)
		if err != nil {
			return nil, err
		}
		return keyOut(k, ""), nil
	})}
}

func withAppID(fn func(ctx context.Context, id string) (any, error)) func(fs *flag.FlagSet) func(context.Context) (any, error) {
	return func(fs *flag.FlagSet) func(context.Context) (any, error) {
		id := fs.String("app-id", "", "application key id (required)")
		return func(ctx context.Context) (any, error) { return fn(ctx, *id) }
	}
}

// userCommands are `promoengine user …`: project users and their roles.
var userCommands = map[string]adminCommand{
	"add": {"user add --project P --email E --role ROLE [--login L] [--first-name F] [--last-name L] [--owner]", func(fs *flag.FlagSet) func(context.Context) (any, error) {
		email := fs.String("email", "", "e-mail address (required)")
		role := fs.String("role", "USER", "role in the project: ADMIN, USER, VIEWER, MERCHANT, USER_RESTRICTED or a custom one")
		login := fs.String("login", "", "login (default: the e-mail address)")
		first := fs.String("first-name", "", "first name")
		last := fs.String("last-name", "", "last name")
		owner := fs.Bool("owner", false, "the user owns the organisation")
		return func(ctx context.Context) (any, error) {
			in := access.ProjectUserInput{Email: *email, Login: *login, Role: *role}
			fs.Visit(func(f *flag.Flag) {
				switch f.Name {
				case "first-name":
					in.FirstName = first
				case "last-name":
					in.LastName = last
				case "owner":
					in.IsOwner = owner
				}
			})
			u, err := access.PutProjectUser(ctx, in)
			if err != nil {
				return nil, err
			}
			return map[string]any{"id": u.ID, "login": u.Login, "email": u.Email, "role": strings.ToUpper(*role)}, nil
		}
	}},
	"remove": {"user remove --project P --user ID_OR_LOGIN", func(fs *flag.FlagSet) func(context.Context) (any, error) {
		user := fs.String("user", "", "user id or login (required)")
		return func(ctx context.Context) (any, error) {
			return map[string]string{"removed": *user}, access.RemoveProjectUser(ctx, *user)
		}
	}},
}

// featuresCommand is `promoengine project features`.
var featuresCommand = adminCommand{"project features --project P [--enable F,…] [--disable F,…]", func(fs *flag.FlagSet) func(context.Context) (any, error) {
	enable := fs.String("enable", "", "comma-separated features to enable (branding, users_management)")
	disable := fs.String("disable", "", "comma-separated features to disable")
	return func(ctx context.Context) (any, error) {
		v, _ := projectFromContext(ctx)
		p, err := access.SetProjectFeatures(ctx, v, splitList(*enable), splitList(*disable))
		if err != nil {
			return nil, err
		}
		features := p.Features
		if features == nil {
			features = []string{}
		}
		return map[string]any{"project_id": p.ID, "features": features}, nil
	}
}}

func projectFromContext(ctx context.Context) (string, bool) {
	v, ok := viewer.FromContext(ctx)
	return v.ProjectID, ok
}
