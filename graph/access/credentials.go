package access

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// HashToken is how key tokens are stored: SHA-256 of the token. Tokens are
// 122-bit random values, so a fast hash is enough; only the hash is kept.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// dummyHash is compared against when an ID is unknown, so a lookup for a
// missing key costs the same as one for a wrong token.
var dummyHash = HashToken("promoengine-no-such-key")

func tokenMatches(storedHash, token string) bool {
	return subtle.ConstantTimeCompare([]byte(storedHash), []byte(HashToken(token))) == 1
}

// AuthenticateApp checks an application key pair used from clientIP and
// returns the viewer it proves. Any mismatch is the same 401, whether the ID
// or the token is wrong or the key is blocked; a valid key used from an
// address outside its allow-list is a 403 forbidden.
func AuthenticateApp(ctx context.Context, c *ent.Client, appID, token, clientIP string) (viewer.Viewer, error) {
	if appID == "" || token == "" {
		return viewer.Viewer{}, apperr.Unauthorized()
	}
	key, err := lookupAppKey(ctx, c, appID)
	switch {
	case ent.IsNotFound(err):
		tokenMatches(dummyHash, token)
		return viewer.Viewer{}, apperr.Unauthorized()
	case err != nil:
		return viewer.Viewer{}, fmt.Errorf("looking up application key: %w", err)
	case !tokenMatches(key.TokenHash, token), key.Status != appkey.StatusACTIVE, key.Side != appkey.SideSERVER:
		return viewer.Viewer{}, apperr.Unauthorized()
	case !ipAllowed(key.AllowedIps, clientIP):
		return viewer.Viewer{}, ipNotAllowed()
	}
	return viewer.Viewer{ProjectID: key.ProjectID, AppID: key.ID}, nil
}

// AuthenticateManagement checks a management key pair.
func AuthenticateManagement(ctx context.Context, c *ent.Client, id, token string) error {
	if id == "" || token == "" {
		return apperr.Unauthorized()
	}
	key, err := c.ManagementKey.Get(ctx, id)
	switch {
	case ent.IsNotFound(err):
		tokenMatches(dummyHash, token)
		return apperr.Unauthorized()
	case err != nil:
		return fmt.Errorf("looking up management key: %w", err)
	case !tokenMatches(key.TokenHash, token):
		return apperr.Unauthorized()
	}
	return nil
}

// ProjectCredentials is a new project with its first server-side and
// client-side keys. The tokens are shown once and never stored in clear.
type ProjectCredentials struct {
	ProjectID      string `json:"project_id"`
	AppID          string `json:"app_id"`
	AppToken       string `json:"app_token"`
	ClientAppID    string `json:"client_app_id"`
	ClientAppToken string `json:"client_app_token"`
}

// CreateProject creates a project with every feature, one server-side key
// and one client-side key, using the client in ctx (run it inside InTx).
// Empty appID/appToken are generated. A name another project has is 409
// duplicate_found.
func CreateProject(ctx context.Context, name, appID, appToken string) (ProjectCredentials, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return ProjectCredentials{}, err
	}
	if name == "" {
		return ProjectCredentials{}, apperr.InvalidPayload("Project name is required")
	}
	create := c.Project.Create().SetName(name).SetFeatures(feature.All)
	p, err := create.Save(ctx)
	if err != nil {
		return ProjectCredentials{}, projectSaveError(err, create.Mutation())
	}
	return projectKeys(ctx, c, p.ID, appID, appToken)
}

// projectKeys creates the first server-side key (appID/appToken, generated
// when empty) and client-side key of a new project.
func projectKeys(ctx context.Context, c *ent.Client, projectID, appID, appToken string) (ProjectCredentials, error) {
	if appID == "" {
		appID = pulid.UUID()
	}
	if appToken == "" {
		appToken = pulid.UUID()
	}
	if _, err := c.AppKey.Create().SetID(appID).SetProjectID(projectID).SetTokenHash(HashToken(appToken)).Save(ctx); err != nil {
		if ent.IsConstraintError(err) {
			return ProjectCredentials{}, apperr.Duplicate("app_key", "An application key with this id already exists")
		}
		return ProjectCredentials{}, fmt.Errorf("creating application key: %w", err)
	}
	clientID, clientToken := pulid.UUID(), pulid.UUID()
	if _, err := c.AppKey.Create().SetID(clientID).SetProjectID(projectID).SetName("client").
		SetSide(appkey.SideCLIENT).SetTokenHash(HashToken(clientToken)).Save(ctx); err != nil {
		return ProjectCredentials{}, fmt.Errorf("creating client-side key: %w", err)
	}
	return ProjectCredentials{ProjectID: projectID, AppID: appID, AppToken: appToken,
		ClientAppID: clientID, ClientAppToken: clientToken}, nil
}

// ManagementCredentials is a management key pair.
type ManagementCredentials struct {
	ManagementID    string `json:"management_id"`
	ManagementToken string `json:"management_token"`
}

// CreateManagementKey stores a management key (generated when empty).
func CreateManagementKey(ctx context.Context, id, token string) (ManagementCredentials, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return ManagementCredentials{}, err
	}
	if id == "" {
		id = pulid.UUID()
	}
	if token == "" {
		token = pulid.UUID()
	}
	if _, err := c.ManagementKey.Create().SetID(id).SetTokenHash(HashToken(token)).Save(ctx); err != nil {
		return ManagementCredentials{}, fmt.Errorf("creating management key: %w", err)
	}
	return ManagementCredentials{ManagementID: id, ManagementToken: token}, nil
}
