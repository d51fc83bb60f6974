// Package pulid makes the prefixed, random string IDs every promoengine
// resource carries (camp_…, v_…, cust_…), shaped like the real service's IDs.
// The same string is the REST id and the GraphQL ID.
package pulid

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Prefixes of the resources promoengine stores. A prefix identifies the
// resource type of an ID (see graph's node resolution).
const (
	PrefixProject       = "proj_"
	PrefixCampaign      = "camp_"
	PrefixVoucher       = "v_"
	PrefixAsync         = "aa_"
	PrefixCustomer      = "cust_"
	PrefixPublish       = "pub_"
	PrefixOAuthToken    = "oat_"
	PrefixBranding      = "brd_"
	PrefixUser          = "user_"
	PrefixMetaSchema    = "ms_"
	PrefixEvent         = "cev_"
	PrefixSegment       = "seg_"
	PrefixExport        = "exp_"
	PrefixVoucherTx     = "vtx_"
	PrefixEventCount    = "evc_"
	PrefixSegmentMember = "segm_"
	PrefixReferral      = "rcv_"
	// Redemption history: redemptions, failed redemptions, rollbacks,
	// failed rollbacks (one table, told apart by prefix like the real service).
	PrefixRedemption       = "r_"
	PrefixRedemptionFailed = "rf_"
	PrefixRollback         = "rr_"
	PrefixRollbackFailed   = "rrf_"
	PrefixOrder            = "ord_"
	PrefixOrderEvent       = "ordev_"
	PrefixCollection       = "pc_"
	PrefixSessionLock      = "ssnl_"
	PrefixSession          = "ssn_"
	PrefixValidation       = "valid_"
	PrefixValidationRule   = "val_"
	PrefixRuleAssignment   = "asgm_"
	PrefixCategory         = "cat_"
	PrefixProduct          = "prod_"
	PrefixSku              = "sku_"
	PrefixPromotionTier    = "promo_"
	PrefixPromotionStack   = "stack_"
	// PrefixCampaignEarningRule is a v1 loyalty program's earning rule.
	PrefixCampaignEarningRule = "ern_"
	// PrefixLoyaltyTier is a v1 loyalty program's tier.
	PrefixLoyaltyTier = "ltr_"
)

const alphanumeric = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// New returns prefix followed by n random alphanumeric characters drawn
// without bias from crypto/rand.
func New(prefix string, n int) string {
	var b strings.Builder
	b.Grow(len(prefix) + n)
	b.WriteString(prefix)
	// 62 symbols: reject bytes >= 248 (4*62) to keep the draw unbiased.
	buf := make([]byte, n+n/2+8)
	for b.Len() < len(prefix)+n {
		if _, err := rand.Read(buf); err != nil {
			panic(fmt.Errorf("pulid: reading random bytes: %w", err))
		}
		for _, c := range buf {
			if c >= 248 {
				continue
			}
			b.WriteByte(alphanumeric[int(c)%62])
			if b.Len() == len(prefix)+n {
				break
			}
		}
	}
	return b.String()
}

// Generator returns a function that makes IDs with the given prefix and
// random length, suitable for an ent DefaultFunc.
func Generator(prefix string, n int) func() string {
	return func() string { return New(prefix, n) }
}

// Hex returns n random bytes as lowercase hex (2n characters).
func Hex(n int) string {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		panic(fmt.Errorf("pulid: reading random bytes: %w", err))
	}
	return hex.EncodeToString(buf)
}

// UUID returns a random (version 4) UUID string, the shape of the real
// service's application IDs and tokens.
func UUID() string {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		panic(fmt.Errorf("pulid: reading random bytes: %w", err))
	}
	buf[6] = (buf[6] & 0x0f) | 0x40
	buf[8] = (buf[8] & 0x3f) | 0x80
	h := hex.EncodeToString(buf)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// Prefixes of the v2 loyalty area (prefix + 18 hex characters, like the
// real service's IDs).
const (
	PrefixProgram        = "lprg_"
	PrefixCardDefinition = "lcdef_"
	PrefixMember         = "lmbr_"
	PrefixCard           = "lcrd_"
	PrefixCardActivity   = "lacrd_"
	PrefixCardTx         = "lctx_"
	PrefixReward         = "lrew_"
	PrefixRewardActivity = "larew_"
	PrefixEarningRule    = "lern_"
	PrefixIncentive      = "linc_"
)

// Prefixes of the v1 rewards (/v1/rewards): a reward and its assignment
// to a loyalty or referral campaign.
const (
	PrefixRewardV1         = "rew_"
	PrefixRewardAssignment = "rewa_"
	// PrefixReferralHolder is a referee of a referral code
	// (/v1/referrals/…/holders).
	PrefixReferralHolder = "rh_"
	// PrefixPointsBucket is a loyalty card's points bucket (graph/points);
	// PrefixPendingPoints a pending-points entry in the same table.
	PrefixPointsBucket  = "lopb_"
	PrefixPendingPoints = "lopp_"
)

var lastMicros atomic.Int64

// Ordered returns 14 hex characters of a strictly increasing (within the
// process) microsecond clock followed by n random bytes as hex: IDs made
// one after another sort in creation order, which breaks ties between
// records created in the same millisecond the way they happened.
func Ordered(n int) string {
	for {
		last := lastMicros.Load()
		now := time.Now().UnixMicro()
		if now <= last {
			now = last + 1
		}
		if lastMicros.CompareAndSwap(last, now) {
			return orderedClock(now) + Hex(n)
		}
	}
}

// orderedClock is fmt.Sprintf("%014x", micros) without fmt's formatting
// machinery (1% of a publication's server CPU: it runs for every ordered
// ID).
func orderedClock(micros int64) string {
	if micros < 0 {
		return fmt.Sprintf("%014x", micros)
	}
	var b [16]byte
	h := strconv.AppendInt(b[:0], micros, 16)
	if len(h) >= 14 {
		return string(h)
	}
	return "00000000000000"[:14-len(h)] + string(h)
}
