package loyaltyv1

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/promoengine/promoengine/ent"
)

// Which card a points addition names, and the expiration rules its program
// had, are remembered per process after the first read, so a busy card's
// additions are one statement each instead of a read and a statement.
// Nothing remembered is trusted: the statement re-checks on the row it
// updates that the card is still of the project, held, of the program the
// request named, and that the program's rules are still the ones read
// (credit_statement.go). When it updates nothing the entry is forgotten
// and the general path answers, so a deleted card, a renamed program or
// changed rules cost one extra read, never a wrong write.

// maxCreditCards bounds the remembered cards; when full, they are all
// forgotten at once.
const maxCreditCards = 4096

// creditCardKey names a card as a request does.
type creditCardKey struct{ project, code, program string }

// newCreditCardKey names the card of code in project, of program when a
// program is named.
func newCreditCardKey(project, code string, program any) creditCardKey {
	key := creditCardKey{project: project, code: code}
	if p, ok := program.(string); ok {
		key.program = "=" + p // distinct from "no program named"
	}
	return key
}

// creditCard is what the addition needs to know about the card.
type creditCard struct {
	id    string
	rules sql.NullString // the program's expiration rules as read
}

var creditCards = struct {
	sync.Mutex
	m map[creditCardKey]creditCard
}{m: map[creditCardKey]creditCard{}}

// cardForCredit returns the held loyalty card with code in project (of
// program, when not nil), remembered or read; found is false when there is
// none.
func cardForCredit(ctx context.Context, c *ent.Client, project, code string, program any) (card creditCard, found bool, err error) {
	key := newCreditCardKey(project, code, program)
	creditCards.Lock()
	card, found = creditCards.m[key]
	creditCards.Unlock()
	if found {
		return card, true, nil
	}
	rows, err := c.QueryContext(ctx, cardForCreditSQL, project, code, program)
	if err != nil {
		return card, false, fmt.Errorf("reading the card to credit: %w", err)
	}
	found = rows.Next()
	if found {
		err = rows.Scan(&card.id, &card.rules)
	}
	if err = errors.Join(err, rows.Err(), rows.Close()); err != nil || !found {
		return card, false, err
	}
	creditCards.Lock()
	if len(creditCards.m) >= maxCreditCards {
		clear(creditCards.m)
	}
	creditCards.m[key] = card
	creditCards.Unlock()
	return card, true, nil
}

// forgetCreditCard drops what is remembered of a card the statement did
// not update.
func forgetCreditCard(project, code string, program any) {
	creditCards.Lock()
	delete(creditCards.m, newCreditCardKey(project, code, program))
	creditCards.Unlock()
}
