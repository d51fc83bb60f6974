package management

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Project users: /management/v1/projects/{projectId}/users.

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

func userJSON(u *access.ProjectUserView) userBody {
	return userBody{ID: u.ID, Login: u.Login, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		Projects: u.Projects, IsOwner: u.IsOwner}
}

func userAny(u *access.ProjectUserView) any { return userJSON(u) }

// listUsers serves GET …/users.
func (h handlers) listUsers(c *gin.Context) {
	us, err := h.root.Query().ManagementUsers(c.Request.Context(), c.Param("projectId"))
	httpkit.Answer(c, http.StatusOK, us, err, func(us []*access.ProjectUserView) any { return httpkit.ListOf(us, userJSON) })
}

// assignUser serves POST …/users: {id | login, role} of an existing user.
func (h handlers) assignUser(c *gin.Context) {
	var in access.AssignUserInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	u, err := h.root.Mutation().AssignManagementUser(c.Request.Context(), c.Param("projectId"), in)
	httpkit.Answer(c, http.StatusOK, u, err, userAny)
}

// getUser serves GET …/users/{userId}.
func (h handlers) getUser(c *gin.Context) {
	u, err := h.root.Query().ManagementUser(c.Request.Context(), c.Param("projectId"), c.Param("userId"))
	httpkit.Answer(c, http.StatusOK, u, err, userAny)
}

// updateUser serves PUT …/users/{userId}: {role}.
func (h handlers) updateUser(c *gin.Context) {
	var in struct {
		Role string `json:"role"`
	}
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	u, err := h.root.Mutation().UpdateManagementUser(c.Request.Context(), c.Param("projectId"), c.Param("userId"), in.Role)
	httpkit.Answer(c, http.StatusOK, u, err, userAny)
}

// unassignUser serves DELETE …/users/{userId}: 204.
func (h handlers) unassignUser(c *gin.Context) {
	_, err := h.root.Mutation().UnassignManagementUser(c.Request.Context(), c.Param("projectId"), c.Param("userId"))
	httpkit.Answer[any](c, http.StatusNoContent, nil, err, nil)
}
