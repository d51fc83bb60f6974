// Package layering holds the declared order of the module's packages and
// checks a source tree against it: a package may import only packages of
// a lower layer. The order is declared once, here (docs/architecture.md
// shows it); layering_test.go checks the real tree with it in every test
// run, so an import that climbs (a domain importing the resolvers, the REST
// layer, or a domain declared above it) fails CI.
package layering

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Module is the module path of the service.
const Module = "github.com/promoengine/promoengine"

// Layers is the declared order, lowest first. A package of the module is
// named by its path inside the module; a name ending in "/..." covers
// that package and every package below it, which may import each other. A
// package under graph/, rest/ or cmd/ that no layer names is a violation
// too: a new package declares its place here first.
var Layers = [][]string{
	// Storage: entities, schemas, migrations (never imports graph or rest).
	{"ent/..."},
	// Pure logic and the one error type: no business state, no HTTP.
	{"graph/apperr", "graph/discount", "graph/formula", "graph/validationrule", "graph/segmentfilter",
		"graph/vouchercode", "graph/origin", "graph/targetaddr"},
	// Shared machinery of the graph packages (transactions, dialect, locks,
	// admission, pages, field collection); only graph's packages import it.
	{"graph/internal/..."},
	// Domain packages (graph/<domain>), lowest first, in the order of
	// docs/architecture.md ("Layers"); peers of one layer do not import
	// each other.
	{"graph/webhook"},
	{"graph/job"},
	// The trash bin: entries that campaign and catalog deletes leave.
	{"graph/bin"},
	{"graph/metadata"},
	{"graph/catalog"},
	// Locations: a project's geographic shapes.
	{"graph/location"},
	{"graph/customer"},
	// The points-bucket store both loyalty generations share.
	{"graph/points"},
	{"graph/campaign/..."},
	{"graph/publication"},
	// Loyalty v2's base: lookups, errors, activities, keyset pages, inputs.
	{"graph/loyalty/loyaltybase"},
	{"graph/loyalty"},
	// Tier structures, their tiers and a member's tiers above the core
	// (whose card bookings call TrackTiers through loyalty.TrackTiers).
	{"graph/loyalty/tier"},
	// The rewards and incentives (benefits) programs offer, above the core.
	{"graph/loyalty/benefit"},
	// Loyalty v2's areas above its core (graph/loyalty): custom events and
	// the referral conversions they record; the earning and rewards
	// previews; a customer's memberships; order payments with points; a
	// program's rewards and their purchase; the program reports. Above
	// them, order refunds' points (which return what order payments took).
	{"graph/loyalty/event", "graph/loyalty/examine", "graph/loyalty/membership", "graph/loyalty/payment",
		"graph/loyalty/programreward", "graph/loyalty/report"},
	{"graph/loyalty/refund"},
	// Promotion tiers and orders: peers, below the redemption that uses both.
	{"graph/promotion", "graph/order"},
	// The redemption's parts below its core (graph/redemption imports
	// them): a project's stacking rules; validation rules and their
	// assignments; the per-process snapshot of a project's active tiers;
	// the validity window of dates and recurrences (pure).
	{"graph/redemption/stacking", "graph/redemption/tiersnapshot", "graph/redemption/validationrules",
		"graph/redemption/window"},
	{"graph/redemption"},
	// Rollbacks of redemptions, above the core whose order documents and
	// webhook events they share.
	{"graph/redemption/rollback"},
	// v1 rewards (they redeem through graph/redemption, which calls them
	// back through redemption.IssueReward) and referral code holders.
	{"graph/reward", "graph/referral"},
	// Qualifications: which redeemables fit a cart, through the evaluation.
	{"graph/qualification"},
	{"graph/export"},
	// v1 loyalty programs and members (campaigns and loyalty cards),
	// sharing graph/loyalty's machinery.
	{"graph/loyaltyv1"},
	// Campaign templates: snapshots replayed through the campaign and
	// promotion use cases.
	{"graph/template"},
	// The access and management area: projects, keys, OAuth, users,
	// branding and the management API over every domain.
	{"graph/access"},
	// The GraphQL layer: resolvers, executor, transport.
	{"graph"},
	// The REST layer (docs/architecture.md, "Splitting rest"), lowest
	// first: the API's own OpenAPI description and the playground's assets
	// (leaves); the shared HTTP kit (rest/internal/httpkit: errors, body
	// decoding, lists, timestamps, management keys); the areas moved out
	// of rest, which import the kit and never rest (the catalogue,
	// locations, segments, categories, validation rules, loyalty v2, the
	// v1 rewards and referral holders side by side; then the areas that
	// show them, below; the management API above the templates, whose
	// renderings it shares); rest itself (the router and
	// the areas still in it); the test harness that serves rest's router.
	// A new package under rest declares its place here first.
	{"rest/openapi", "rest/playground"},
	{"rest/internal/..."},
	{"rest/catalog", "rest/locations", "rest/segments", "rest/categories", "rest/validationrules",
		"rest/loyaltyv2", "rest/rewards", "rest/referrals"},
	// Areas that show a lower area's objects, lowest first: promotion tiers
	// and stacks (rest/promotions) show their categories, vouchers
	// (rest/vouchers) their categories and rule assignments; campaigns
	// (rest/campaigns) their categories and a PROMOTION campaign's tiers;
	// v1 loyalty (rest/loyaltyv1) renders v1 rewards and their assignments
	// and shows programs as campaigns; the v1 templates (rest/templates)
	// answer their set-ups with campaigns and tiers.
	{"rest/promotions", "rest/vouchers"},
	{"rest/campaigns"},
	{"rest/loyaltyv1", "rest/templates"},
	{"rest/management"},
	{"rest"},
	{"rest/resttest"},
	// The binary.
	{"cmd/..."},
}

// Violation is one import against the declared order.
type Violation struct {
	Importer, Imported string // paths inside the module
	File               string
}

func (v Violation) String() string {
	return fmt.Sprintf("%s imports %s (%s)", v.Importer, v.Imported, v.File)
}

// place returns the layer of a package path inside the module and the
// name that placed it, or -1.
func place(layers [][]string, pkg string) (int, string) {
	for i, names := range layers {
		for _, n := range names {
			base, wild := strings.CutSuffix(n, "/...")
			if n == pkg || (wild && (pkg == base || strings.HasPrefix(pkg, base+"/"))) {
				return i, n
			}
		}
	}
	return -1, ""
}

// Check parses the non-test Go files of every package under root (the
// module's directory) that belongs to prefixes (e.g. "graph", "ent") and
// returns the imports that do not go strictly downwards in layers (within
// one "/..." name they may go either way), and the packages that no layer
// names.
func Check(root string, layers [][]string, prefixes ...string) ([]Violation, error) {
	imports := map[string]map[string]string{} // importer -> imported -> file
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		if !underAny(pkg, prefixes) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", p, err)
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]string{}
		}
		for _, imp := range f.Imports {
			target := strings.Trim(imp.Path.Value, `"`)
			if target == Module || strings.HasPrefix(target, Module+"/") {
				imports[pkg][strings.TrimPrefix(strings.TrimPrefix(target, Module), "/")] = filepath.ToSlash(path.Join(pkg, filepath.Base(p)))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Violation
	for importer, targets := range imports {
		from, group := place(layers, importer)
		if from < 0 {
			out = append(out, Violation{Importer: importer, Imported: "(no declared layer)"})
			continue
		}
		for target, file := range targets {
			to, targetGroup := place(layers, target)
			sameGroup := targetGroup == group && strings.HasSuffix(group, "/...")
			if to < 0 || (to >= from && !sameGroup) {
				out = append(out, Violation{Importer: importer, Imported: target, File: file})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

func underAny(pkg string, prefixes []string) bool {
	for _, p := range prefixes {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}
