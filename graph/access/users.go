package access

import (
	"context"
	"fmt"
	"maps"
	"net/mail"
	"regexp"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/projectuser"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/user"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// rolePattern is what a role looks like: the built-in ADMIN, USER, VIEWER,
// MERCHANT, USER_RESTRICTED, or a custom role in the same style.
var rolePattern = regexp.MustCompile(`^[A-Z][A-Z0-9_]{0,49}$`)

// normalizeRole checks a role and returns it upper-cased.
func normalizeRole(role string) (string, error) {
	r := strings.ToUpper(strings.TrimSpace(role))
	if !rolePattern.MatchString(r) {
		return "", apperr.InvalidPayload("Property .role must be a role such as ADMIN, USER or VIEWER, got %q", role)
	}
	return r, nil
}

// ProjectUserView is a user as the management API shows it: with the
// user's role in the project asked about and in every project.
type ProjectUserView struct {
	ID        string            `json:"id"`
	Login     string            `json:"login"`
	Email     string            `json:"email"`
	FirstName string            `json:"first_name"`
	LastName  string            `json:"last_name"`
	IsOwner   bool              `json:"is_owner"`
	Role      string            `json:"role"`
	Projects  map[string]string `json:"projects"`
}

// ProjectRole is a user's role in one project.
type ProjectRole struct {
	ProjectID string `json:"project_id"`
	Role      string `json:"role"`
}

// Roles are the user's roles in every project, by project id.
func (v ProjectUserView) Roles() []ProjectRole {
	out := make([]ProjectRole, 0, len(v.Projects))
	for _, id := range slices.Sorted(maps.Keys(v.Projects)) {
		out = append(out, ProjectRole{ProjectID: id, Role: v.Projects[id]})
	}
	return out
}

// ProjectUsers lists the users of the viewer's project (see ManageProject),
// each with its roles in all projects, oldest first.
func ProjectUsers(ctx context.Context) ([]ProjectUserView, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	members, err := c.ProjectUser.Query().WithUser().
		Order(ent.Asc(projectuser.FieldCreatedAt), ent.Asc(projectuser.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing project users: %w", err)
	}
	return userViews(ctx, c, members)
}

// userViews shows members (with their users loaded) with their roles in
// every project.
func userViews(ctx context.Context, c *ent.Client, members []*ent.ProjectUser) ([]ProjectUserView, error) {
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.UserID
	}
	// The projects map shows every project of these users: the management
	// key administers all projects, so this one read crosses them.
	all, err := c.ProjectUser.Query().Where(projectuser.UserIDIn(ids...)).All(viewer.NewSystemContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("listing roles of project users: %w", err)
	}
	roles := map[string]map[string]string{}
	for _, m := range all {
		if roles[m.UserID] == nil {
			roles[m.UserID] = map[string]string{}
		}
		roles[m.UserID][m.ProjectID] = m.Role
	}
	out := make([]ProjectUserView, len(members))
	for i, m := range members {
		u := m.Edges.User
		out[i] = ProjectUserView{ID: u.ID, Login: u.Login, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
			IsOwner: u.IsOwner, Role: m.Role, Projects: roles[m.UserID]}
	}
	return out, nil
}

// ProjectUserInput adds a user to a project or changes the user's role.
// The user is found by login (default: the e-mail address) and created
// when new; given names and the owner flag update an existing user.
type ProjectUserInput struct {
	Email     string
	Login     string
	FirstName *string
	LastName  *string
	Role      string
	IsOwner   *bool
}

// PutProjectUser gives a user a role in the viewer's project (operator
// command `promoengine user add`), creating the user when new.
func PutProjectUser(ctx context.Context, in ProjectUserInput) (*ent.User, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
		return nil, apperr.InvalidPayload("Property .email must be a valid email address, got %q", in.Email)
	}
	login := strings.TrimSpace(in.Login)
	if login == "" {
		login = in.Email
	}
	role, err := normalizeRole(in.Role)
	if err != nil {
		return nil, err
	}
	u, err := c.User.Query().Where(user.Login(login)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		u, err = c.User.Create().SetLogin(login).SetEmail(in.Email).
			SetNillableFirstName(in.FirstName).SetNillableLastName(in.LastName).
			SetNillableIsOwner(in.IsOwner).Save(ctx)
	case err == nil:
		u, err = u.Update().SetEmail(in.Email).
			SetNillableFirstName(in.FirstName).SetNillableLastName(in.LastName).
			SetNillableIsOwner(in.IsOwner).Save(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("saving user: %w", err)
	}
	m, err := c.ProjectUser.Query().Where(projectuser.UserID(u.ID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		_, err = c.ProjectUser.Create().SetUserID(u.ID).SetRole(role).Save(ctx)
	case err == nil:
		_, err = m.Update().SetRole(role).Save(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("saving project role: %w", err)
	}
	return u, nil
}

// RemoveProjectUser takes a user (by id or login) out of the viewer's project.
func RemoveProjectUser(ctx context.Context, idOrLogin string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	n, err := c.ProjectUser.Delete().Where(projectuser.HasUserWith(
		user.Or(user.ID(idOrLogin), user.Login(idOrLogin)))).Exec(ctx)
	if err != nil {
		return fmt.Errorf("removing project user: %w", err)
	}
	if n == 0 {
		return apperr.NotFound("user", idOrLogin)
	}
	return nil
}
