package access

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The management area in the graph. Its fields answer only on the
// management endpoint (/management/graphql), whose requests carry
// management credentials (WithManagement); on /graphql they are 401.

type managementKey struct{}

// WithManagement marks ctx as authenticated with management keys.
func WithManagement(ctx context.Context) context.Context {
	return context.WithValue(ctx, managementKey{}, true)
}

func requireManagement(ctx context.Context) error {
	if ok, _ := ctx.Value(managementKey{}).(bool); !ok {
		return &apperr.Error{Code: 401, Key: "unauthorized", Message: "Unauthorized",
			Details: "Management fields need management keys on /management/graphql"}
	}
	return nil
}

// ProjectList is a page of projects and how many there are.
type ProjectList struct {
	Total int            `json:"total"`
	Data  []*ent.Project `json:"data"`
}

// SideKey is a created project's key pair (the token shown once).
type SideKey struct {
	AppID    string `json:"app_id"`
	AppToken string `json:"app_token"`
}

// ServerSideKey is the new project's server-side key.
func (c CreatedProject) ServerSideKey() SideKey {
	return SideKey{AppID: c.Keys.AppID, AppToken: c.Keys.AppToken}
}

// ClientSideKey is the new project's client-side key.
func (c CreatedProject) ClientSideKey() SideKey {
	return SideKey{AppID: c.Keys.ClientAppID, AppToken: c.Keys.ClientAppToken}
}

func ManagementProjects(ctx context.Context, limit, page *int) (*ProjectList, error) {
	if err := requireManagement(ctx); err != nil {
		return nil, err
	}
	ps, total, err := ManagedProjects(ctx, limit, page)
	if err != nil {
		return nil, err
	}
	return &ProjectList{Total: total, Data: ps}, nil
}

func ManagementProject(ctx context.Context, id string) (*ent.Project, error) {
	if err := requireManagement(ctx); err != nil {
		return nil, err
	}
	return ManagedProject(ctx, id)
}

func CreateManagementProject(ctx context.Context, in ProjectInput) (*CreatedProject, error) {
	if err := requireManagement(ctx); err != nil {
		return nil, err
	}
	var out CreatedProject
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		var err error
		out, err = CreateManagedProject(ctx, in)
		return err
	})
	return &out, err
}

func UpdateManagementProject(ctx context.Context, id string, in ProjectInput) (*ent.Project, error) {
	if err := requireManagement(ctx); err != nil {
		return nil, err
	}
	var p *ent.Project
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		var err error
		p, err = UpdateProject(ctx, id, in)
		return err
	})
	return p, err
}

// inManagedProject runs fn with a context scoped to the project (404 when
// it does not exist), after checking management credentials.
func inManagedProject[T any](ctx context.Context, projectID string, fn func(ctx context.Context) (T, error)) (T, error) {
	return inManagedProjectWith(ctx, projectID, "", fn)
}

// inManagedProjectWith is inManagedProject for an operation that needs the
// plan feature need (402 missing_required_feature without it).
func inManagedProjectWith[T any](ctx context.Context, projectID, need string, fn func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	if err := requireManagement(ctx); err != nil {
		return zero, err
	}
	var out T
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		pctx, _, err := ManageProject(ctx, projectID, need)
		if err != nil {
			return err
		}
		out, err = fn(pctx)
		return err
	})
	return out, err
}

func keySide(client *bool) appkey.Side {
	if client != nil && *client {
		return appkey.SideCLIENT
	}
	return appkey.SideSERVER
}

func ManagementAPIKeys(ctx context.Context, projectID string, client *bool) ([]*ent.AppKey, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) ([]*ent.AppKey, error) {
		return AppKeys(ctx, keySide(client))
	})
}

func CreateManagementAPIKey(ctx context.Context, projectID string, client *bool, input *AppKeyInput) (*AppKeyWithToken, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*AppKeyWithToken, error) {
		var in AppKeyInput
		if input != nil {
			in = *input
		}
		in.Side = keySide(client)
		k, err := CreateAppKey(ctx, in)
		return &k, err
	})
}

func UpdateManagementAPIKey(ctx context.Context, projectID, appID string, in AppKeyInput) (*ent.AppKey, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.AppKey, error) {
		return UpdateAppKey(ctx, appID, in)
	})
}

func SetManagementAPIKeyBlocked(ctx context.Context, projectID, appID string, blocked bool) (*ent.AppKey, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.AppKey, error) {
		return SetAppKeyStatus(ctx, appID, blocked)
	})
}

func RegenerateManagementAPIKey(ctx context.Context, projectID, appID string) (*AppKeyWithToken, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*AppKeyWithToken, error) {
		k, err := RegenerateAppKey(ctx, appID)
		return &k, err
	})
}

func DeleteManagementAPIKey(ctx context.Context, projectID, appID string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) {
		return appID, DeleteAppKey(ctx, appID)
	})
}
