package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
)

// The management area (/management/v1, management keys). Every handler
// starts at graph.ManageProject: unknown project → 404, missing plan
// feature → 402, then the use case runs scoped to that project.

// manage runs fn for the path's project in one transaction, after checking
// the project exists and has feature need ("" for none).
func manage(c *gin.Context, need string, fn func(ctx context.Context) error) error {
	return graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		ctx, _, err := graph.ManageProject(ctx, c.Param("projectId"), need)
		if err != nil {
			return err
		}
		return fn(ctx)
	})
}

// brandingBody is the interface's brand configuration.
type brandingBody struct {
	ID       string             `json:"id"`
	Brand    jsonfield.Brand    `json:"brand"`
	Address  jsonfield.Address  `json:"address"`
	Contact  jsonfield.Contact  `json:"contact"`
	Cockpits jsonfield.Cockpits `json:"cockpits"`
}

// createBranding serves POST /management/v1/projects/{projectId}/branding.
func createBranding(c *gin.Context) {
	var in graph.CreateBrandingInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var b *ent.Branding
	err := manage(c, feature.Branding, func(ctx context.Context) error {
		var err error
		b, err = graph.CreateBranding(ctx, in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.JSON(http.StatusOK, brandingBody{ID: b.ID, Brand: b.Brand, Address: b.Address, Contact: b.Contact, Cockpits: b.Cockpits})
}

// userBody is the interface's project user.
type userBody struct {
	ID        string            `json:"id"`
	Login     string            `json:"login"`
	Email     string            `json:"email"`
	FirstName string            `json:"first_name"`
	LastName  string            `json:"last_name"`
	Projects  map[string]string `json:"projects"`
	IsOwner   bool              `json:"is_owner"`
}

// listUsers serves GET /management/v1/projects/{projectId}/users.
func listUsers(c *gin.Context) {
	var users []graph.ProjectUserView
	err := manage(c, feature.UsersManagement, func(ctx context.Context) error {
		var err error
		users, err = graph.ProjectUsers(ctx)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]userBody, len(users))
	for i, u := range users {
		out[i] = userBody{ID: u.User.ID, Login: u.User.Login, Email: u.User.Email,
			FirstName: u.User.FirstName, LastName: u.User.LastName, Projects: u.Projects, IsOwner: u.User.IsOwner}
	}
	c.JSON(http.StatusOK, newList(out, len(out)))
}

// apiKeyBody is an application key as the management API shows it. The
// token appears only in the responses of create and regenerate.
type apiKeyBody struct {
	Object     string     `json:"object"`
	AppID      string     `json:"app_id"`
	AppToken   string     `json:"app_token,omitempty"`
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	AllowedIPs []string   `json:"allowed_ips"`
	ProjectID  string     `json:"project_id"`
	Side       string     `json:"side"`
	CreatedAt  timestamp  `json:"created_at"`
	UpdatedAt  *timestamp `json:"updated_at"`
}

func apiKeyJSON(k *ent.AppKey, token string) apiKeyBody {
	ips := k.AllowedIps
	if ips == nil {
		ips = []string{}
	}
	return apiKeyBody{Object: "api_key", AppID: k.ID, AppToken: token, Name: k.Name, Status: k.Status.String(),
		AllowedIPs: ips, ProjectID: k.ProjectID, Side: k.Side.String(), CreatedAt: timestamp(k.CreatedAt), UpdatedAt: optionalTime(k.UpdatedAt)}
}

// apiKeyHandlers serve /management/v1/projects/{projectId}/api-keys (side
// SERVER) and …/client-keys (side CLIENT): the application key lifecycle.
// Key ids are unique across both sides, so the per-key routes act on the
// key the id names.
type apiKeyHandlers struct{ side appkey.Side }

// list serves GET …/api-keys.
func (h apiKeyHandlers) list(c *gin.Context) {
	var keys []*ent.AppKey
	err := manage(c, "", func(ctx context.Context) error {
		var err error
		keys, err = graph.AppKeys(ctx, h.side)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]apiKeyBody, len(keys))
	for i, k := range keys {
		out[i] = apiKeyJSON(k, "")
	}
	c.JSON(http.StatusOK, newList(out, len(out)))
}

// create serves POST …/api-keys: {name?, allowed_ips?} → the key with its token.
func (h apiKeyHandlers) create(c *gin.Context) {
	var in graph.AppKeyInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	in.Side = h.side
	var k graph.AppKeyWithToken
	err := manage(c, "", func(ctx context.Context) error {
		var err error
		k, err = graph.CreateAppKey(ctx, in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, apiKeyJSON(k.Key, k.Token))
}

// update serves PUT …/api-keys/{appId}: {name?, allowed_ips?}.
func (apiKeyHandlers) update(c *gin.Context) {
	var in graph.AppKeyInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	var k *ent.AppKey
	err := manage(c, "", func(ctx context.Context) error {
		var err error
		k, err = graph.UpdateAppKey(ctx, c.Param("appId"), in)
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.JSON(http.StatusOK, apiKeyJSON(k, ""))
}

// setStatus serves POST …/api-keys/{appId}/block and …/unblock.
func (apiKeyHandlers) setStatus(blocked bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		var k *ent.AppKey
		err := manage(c, "", func(ctx context.Context) error {
			var err error
			k, err = graph.SetAppKeyStatus(ctx, c.Param("appId"), blocked)
			return err
		})
		if err != nil {
			renderError(c, err)
			return
		}
		c.JSON(http.StatusOK, apiKeyJSON(k, ""))
	}
}

// regenerate serves POST …/api-keys/{appId}/regenerate: a new token, same id.
func (apiKeyHandlers) regenerate(c *gin.Context) {
	var k graph.AppKeyWithToken
	err := manage(c, "", func(ctx context.Context) error {
		var err error
		k, err = graph.RegenerateAppKey(ctx, c.Param("appId"))
		return err
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, apiKeyJSON(k.Key, k.Token))
}

// delete serves DELETE …/api-keys/{appId}: 204; the key's OAuth tokens go too.
func (apiKeyHandlers) delete(c *gin.Context) {
	err := manage(c, "", func(ctx context.Context) error {
		return graph.DeleteAppKey(ctx, c.Param("appId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
