package access

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/projectuser"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/user"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Project users through the management API: assign an existing user to
// the viewer's project, read, change the role, unassign. Users themselves
// are made by the operator (`promoengine user add`); every operation needs
// the users_management feature.

// AssignUserInput names an existing user, by id or by login (not both),
// and the role to give it in the project.
type AssignUserInput struct {
	ID    *string `json:"id"`
	Login *string `json:"login"`
	Role  string  `json:"role"`
}

// AssignProjectUser gives an existing user a role in the viewer's project:
// 404 for an unknown user, 409 duplicate_found when already assigned.
func AssignProjectUser(ctx context.Context, in AssignUserInput) (*ProjectUserView, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	var by string
	var where predicate.User
	switch {
	case in.ID != nil && in.Login != nil:
		return nil, apperr.InvalidPayload("Payload must have either 'id' or 'login', not both")
	case in.ID != nil && strings.TrimSpace(*in.ID) != "":
		by, where = *in.ID, user.ID(*in.ID)
	case in.Login != nil && strings.TrimSpace(*in.Login) != "":
		by, where = *in.Login, user.Login(*in.Login)
	default:
		return nil, apperr.InvalidPayload("Payload must have required property 'id' or 'login'")
	}
	role, err := normalizeRole(in.Role)
	if err != nil {
		return nil, err
	}
	u, err := c.User.Query().Where(where).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("user", by)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up user: %w", err)
	}
	_, err = c.ProjectUser.Create().SetUserID(u.ID).SetRole(role).Save(ctx)
	if ent.IsConstraintError(err) { // the (project, user) index decides races too
		return nil, apperr.Duplicate("user", fmt.Sprintf("User %s is already assigned to the project", u.ID))
	}
	if err != nil {
		return nil, fmt.Errorf("assigning user: %w", err)
	}
	return ProjectUser(ctx, u.ID)
}

// ProjectUser reads a user of the viewer's project; a user who is not
// assigned to it is not found.
func ProjectUser(ctx context.Context, userID string) (*ProjectUserView, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	m, err := c.ProjectUser.Query().Where(projectuser.UserID(userID)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		e := apperr.NotFound("user", userID)
		if v, ok := viewer.FromContext(ctx); ok {
			e.Details = fmt.Sprintf("Cannot find user '%s' assigned to the project '%s'", userID, v.ProjectID)
		}
		return nil, e
	}
	if err != nil {
		return nil, fmt.Errorf("looking up project user: %w", err)
	}
	views, err := userViews(ctx, c, []*ent.ProjectUser{m})
	if err != nil {
		return nil, err
	}
	return &views[0], nil
}

// UpdateProjectUserRole changes a project user's role.
func UpdateProjectUserRole(ctx context.Context, userID, role string) (*ProjectUserView, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	r, err := normalizeRole(role)
	if err != nil {
		return nil, err
	}
	if _, err := ProjectUser(ctx, userID); err != nil {
		return nil, err
	}
	if err := c.ProjectUser.Update().Where(projectuser.UserID(userID)).SetRole(r).Exec(ctx); err != nil {
		return nil, fmt.Errorf("updating project user: %w", err)
	}
	return ProjectUser(ctx, userID)
}

// UnassignProjectUser takes a user out of the viewer's project: 404 for an
// unknown user, 400 user_not_assigned when not in the project, and 400
// last_project when it is the user's only project (a user keeps one).
func UnassignProjectUser(ctx context.Context, userID string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	// Lock the user so two unassignments racing for its last two
	// projects cannot both pass the check below.
	q := c.User.Query().Where(user.ID(userID))
	if entdb.DialectFromContext(ctx) == dialect.Postgres {
		q = q.ForUpdate()
	}
	if _, err := q.Only(ctx); ent.IsNotFound(err) {
		return apperr.NotFound("user", userID)
	} else if err != nil {
		return fmt.Errorf("looking up user: %w", err)
	}
	assigned, err := c.ProjectUser.Query().Where(projectuser.UserID(userID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("looking up project user: %w", err)
	}
	if !assigned {
		return apperr.New(http.StatusBadRequest, "user_not_assigned", "User is not assigned", "User is not assigned to the project")
	}
	projects, err := c.ProjectUser.Query().Where(projectuser.UserID(userID)).Count(viewer.NewSystemContext(ctx))
	if err != nil {
		return fmt.Errorf("counting the user's projects: %w", err)
	}
	if projects == 1 {
		return apperr.New(http.StatusBadRequest, "last_project", "Cannot unassign user",
			"A user assigned to only one project cannot be unassigned from it")
	}
	if _, err := c.ProjectUser.Delete().Where(projectuser.UserID(userID)).Exec(ctx); err != nil {
		return fmt.Errorf("unassigning user: %w", err)
	}
	return nil
}

func ManagementUsers(ctx context.Context, projectID string) ([]*ProjectUserView, error) {
	return inManagedProjectWith(ctx, projectID, feature.UsersManagement, func(ctx context.Context) ([]*ProjectUserView, error) {
		views, err := ProjectUsers(ctx)
		out := make([]*ProjectUserView, len(views))
		for i := range views {
			out[i] = &views[i]
		}
		return out, err
	})
}

func ManagementUser(ctx context.Context, projectID, userID string) (*ProjectUserView, error) {
	return inManagedProjectWith(ctx, projectID, feature.UsersManagement, func(ctx context.Context) (*ProjectUserView, error) {
		return ProjectUser(ctx, userID)
	})
}

func AssignManagementUser(ctx context.Context, projectID string, in AssignUserInput) (*ProjectUserView, error) {
	return inManagedProjectWith(ctx, projectID, feature.UsersManagement, func(ctx context.Context) (*ProjectUserView, error) {
		return AssignProjectUser(ctx, in)
	})
}

func UpdateManagementUser(ctx context.Context, projectID, userID, role string) (*ProjectUserView, error) {
	return inManagedProjectWith(ctx, projectID, feature.UsersManagement, func(ctx context.Context) (*ProjectUserView, error) {
		return UpdateProjectUserRole(ctx, userID, role)
	})
}

func UnassignManagementUser(ctx context.Context, projectID, userID string) (string, error) {
	return inManagedProjectWith(ctx, projectID, feature.UsersManagement, func(ctx context.Context) (string, error) {
		return userID, UnassignProjectUser(ctx, userID)
	})
}
