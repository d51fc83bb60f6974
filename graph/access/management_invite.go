package access

import (
	"context"
	"fmt"
	"net/mail"
	"strings"

	"github.com/promoengine/promoengine/ent/user"
	"github.com/promoengine/promoengine/ent/userinvitation"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// InviteUserInput is the body of POST /management/v1/projects/users/invite:
// who is invited, and the role offered in each project.
type InviteUserInput struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	// Projects maps a project ID to a role name (a string).
	Projects map[string]any `json:"projects"`
}

// maxInvitedProjects bounds the projects of one invitation.
const maxInvitedProjects = 100

// InviteManagementUser stores an invitation (docs/management.md): no mail
// is sent and nothing secret is made; an operator turns it into a user.
// An address that is already a user's login is 409; inviting the same
// address again replaces its invitation. Every project must exist (404)
// and every role be well-formed (400); nothing is written otherwise.
func InviteManagementUser(ctx context.Context, in InviteUserInput) (bool, error) {
	if err := requireManagement(ctx); err != nil {
		return false, err
	}
	email := strings.TrimSpace(in.Email)
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email || len(email) > 320 {
		return false, apperr.InvalidPayload("Property .email must be a valid e-mail address")
	}
	for prop, v := range map[string]string{"first_name": in.FirstName, "last_name": in.LastName} {
		if strings.TrimSpace(v) == "" || len(v) > 1000 {
			return false, apperr.InvalidPayload("Payload must have required property '%s' (a non-empty string of at most 1000 characters)", prop)
		}
	}
	if len(in.Projects) == 0 || len(in.Projects) > maxInvitedProjects {
		return false, apperr.InvalidPayload("Property .projects must map 1 to %d project IDs to roles", maxInvitedProjects)
	}
	roles := make(map[string]string, len(in.Projects))
	for projectID, v := range in.Projects {
		role, isString := v.(string)
		if !isString {
			return false, apperr.InvalidPayload("Property .projects.%s must be a role name", projectID)
		}
		r, err := normalizeRole(role)
		if err != nil {
			return false, err
		}
		if _, err := ManagedProject(ctx, projectID); err != nil {
			return false, err
		}
		roles[projectID] = r
	}
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		taken, err := c.User.Query().Where(user.Or(user.Login(email), user.Email(email))).Exist(ctx)
		if err != nil {
			return fmt.Errorf("looking up users: %w", err)
		}
		if taken {
			return apperr.Duplicate("user", "The e-mail address "+email+" belongs to a user already")
		}
		err = c.UserInvitation.Create().SetEmail(email).SetFirstName(in.FirstName).SetLastName(in.LastName).
			SetProjects(roles).OnConflictColumns(userinvitation.FieldEmail).UpdateNewValues().Exec(ctx)
		if err != nil {
			return fmt.Errorf("storing invitation: %w", err)
		}
		return nil
	})
	return err == nil, err
}
