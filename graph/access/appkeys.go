package access

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/oauthtoken"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Application key lifecycle (management API and CLI). Every function acts
// on the project of the viewer in ctx (see ManageProject); a key of another
// project is not found. Writes run inside InTx.

// AppKeyInput sets the editable properties of an application key; nil
// leaves a property as it is (or at its default on create).
type AppKeyInput struct {
	Name       *string  `json:"name"`
	AllowedIPs []string `json:"allowed_ips"`
	// Side is the kind of key to create (SERVER when empty); it is set by
	// the route or command, never read from a request body.
	Side appkey.Side `json:"-"`
}

// AppKeyWithToken is a key together with its token, shown once after
// create and regenerate.
type AppKeyWithToken struct {
	Key   *ent.AppKey
	Token string
}

// CreateAppKey creates an application key in the viewer's project.
func CreateAppKey(ctx context.Context, in AppKeyInput) (AppKeyWithToken, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return AppKeyWithToken{}, err
	}
	pid, err := store.ProjectOf(ctx)
	if err != nil {
		return AppKeyWithToken{}, err
	}
	ips, err := normalizeAllowedIPs(in.AllowedIPs)
	if err != nil {
		return AppKeyWithToken{}, err
	}
	name := "default"
	if in.Name != nil {
		if name = strings.TrimSpace(*in.Name); name == "" || len(name) > 200 {
			return AppKeyWithToken{}, apperr.InvalidPayload("Property .name must be 1 to 200 characters")
		}
	}
	side := in.Side
	if side == "" {
		side = appkey.SideSERVER
	}
	token := pulid.UUID()
	k, err := c.AppKey.Create().SetID(pulid.UUID()).SetProjectID(pid).SetName(name).SetSide(side).
		SetTokenHash(HashToken(token)).SetAllowedIps(ips).Save(ctx)
	if err != nil {
		return AppKeyWithToken{}, fmt.Errorf("creating application key: %w", err)
	}
	return AppKeyWithToken{Key: k, Token: token}, nil
}

// AppKeys lists the application keys of one side (server or client) of the
// viewer's project, oldest first.
func AppKeys(ctx context.Context, side appkey.Side) ([]*ent.AppKey, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	pid, err := store.ProjectOf(ctx)
	if err != nil {
		return nil, err
	}
	return c.AppKey.Query().Where(appkey.ProjectID(pid), appkey.SideEQ(side)).
		Order(ent.Asc(appkey.FieldCreatedAt), ent.Asc(appkey.FieldID)).All(ctx)
}

// appKey finds a key of the viewer's project.
func appKey(ctx context.Context, c *ent.Client, appID string) (*ent.AppKey, error) {
	pid, err := store.ProjectOf(ctx)
	if err != nil {
		return nil, err
	}
	k, err := c.AppKey.Query().Where(appkey.ID(appID), appkey.ProjectID(pid)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("api_key", appID)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up application key: %w", err)
	}
	return k, nil
}

// UpdateAppKey changes a key's name and IP allow-list (nil leaves them;
// an empty allow-list allows any address).
func UpdateAppKey(ctx context.Context, appID string, in AppKeyInput) (*ent.AppKey, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	k, err := appKey(ctx, c, appID)
	if err != nil {
		return nil, err
	}
	forgetAppKey(ctx, appID)
	upd := k.Update()
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" || len(name) > 200 {
			return nil, apperr.InvalidPayload("Property .name must be 1 to 200 characters")
		}
		upd.SetName(name)
	}
	if in.AllowedIPs != nil {
		ips, err := normalizeAllowedIPs(in.AllowedIPs)
		if err != nil {
			return nil, err
		}
		upd.SetAllowedIps(ips)
	}
	return upd.Save(ctx)
}

// SetAppKeyStatus blocks (ACTIVE → BLOCKED) or unblocks a key. It is
// idempotent: setting the status a key already has changes nothing. A
// blocked key authenticates nothing, and the OAuth tokens it issued are
// revoked (deleted), so unblocking does not bring them back; every bearer
// check also joins the token to its key and requires ACTIVE.
func SetAppKeyStatus(ctx context.Context, appID string, blocked bool) (*ent.AppKey, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	k, err := lockedAppKey(ctx, c, appID)
	if err != nil {
		return nil, err
	}
	forgetAppKey(ctx, appID)
	status := appkey.StatusACTIVE
	if blocked {
		status = appkey.StatusBLOCKED
	}
	if k.Status == status {
		return k, nil
	}
	if blocked {
		if err := deleteTokensOf(ctx, c, k.ID); err != nil {
			return nil, err
		}
	}
	return k.Update().SetStatus(status).Save(ctx)
}

// lockedAppKey finds a key of the viewer's project after locking the
// project, so blocking or deleting a key and issuing a token with it
// (IssueOAuthToken takes the same lock) happen one after the other.
func lockedAppKey(ctx context.Context, c *ent.Client, appID string) (*ent.AppKey, error) {
	pid, err := store.ProjectOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := store.LockProject(ctx, c, pid); err != nil {
		return nil, err
	}
	return appKey(ctx, c, appID)
}

func deleteTokensOf(ctx context.Context, c *ent.Client, appID string) error {
	if _, err := c.OAuthToken.Delete().Where(oauthtoken.AppKeyID(appID)).Exec(ctx); err != nil {
		return fmt.Errorf("deleting OAuth tokens of the key: %w", err)
	}
	return nil
}

// RegenerateAppKey gives a key a new token; the key id stays, the old token
// stops working, and OAuth tokens issued by the key keep working.
func RegenerateAppKey(ctx context.Context, appID string) (AppKeyWithToken, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return AppKeyWithToken{}, err
	}
	k, err := appKey(ctx, c, appID)
	if err != nil {
		return AppKeyWithToken{}, err
	}
	forgetAppKey(ctx, appID)
	token := pulid.UUID()
	k, err = k.Update().SetTokenHash(HashToken(token)).Save(ctx)
	if err != nil {
		return AppKeyWithToken{}, fmt.Errorf("regenerating application key: %w", err)
	}
	return AppKeyWithToken{Key: k, Token: token}, nil
}

// DeleteAppKey deletes a key and every OAuth token it issued.
func DeleteAppKey(ctx context.Context, appID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	k, err := lockedAppKey(ctx, c, appID)
	if err != nil {
		return err
	}
	forgetAppKey(ctx, appID)
	if err := deleteTokensOf(ctx, c, k.ID); err != nil {
		return err
	}
	if err := c.AppKey.DeleteOne(k).Exec(ctx); err != nil {
		return fmt.Errorf("deleting application key: %w", err)
	}
	return nil
}
