package loyaltyv2

import (
	"encoding/json"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// The v2 card definition's members beside its own fields, in the shape of
// loyalties-v2.json's CardDefinitionResponse: the complete code_config
// and the settings (graph/loyalty/card_settings.go) with their defaults.

// cardCodeConfigBody is CodeConfigDTO: every member present.
type cardCodeConfigBody struct {
	Pattern string `json:"pattern"`
	Length  int    `json:"length"`
	Charset string `json:"charset"`
	Prefix  string `json:"prefix"`
	Postfix string `json:"postfix"`
}

// cardCodeConfigJSON answers a stored code configuration (normalized on
// write: pattern, length and charset are set) with "" for a prefix or
// postfix it has none of.
func cardCodeConfigJSON(cc *jsonfield.CodeConfig) cardCodeConfigBody {
	if cc == nil {
		return cardCodeConfigBody{}
	}
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	out := cardCodeConfigBody{Pattern: deref(cc.Pattern), Charset: deref(cc.Charset), Prefix: deref(cc.Prefix), Postfix: deref(cc.Postfix)}
	if cc.Length != nil {
		out.Length = *cc.Length
	}
	if out.Pattern == "" {
		out.Pattern = strings.Repeat("#", out.Length)
	}
	return out
}

// cardSettingsBody are the settings members of a card definition.
type cardSettingsBody struct {
	PointsExpiration map[string]any                 `json:"points_expiration"`
	EarningLimits    *jsonfield.CardLimits          `json:"earning_limits"`
	SpendingLimits   *jsonfield.CardLimits          `json:"spending_limits"`
	Refunds          *jsonfield.CardRefunds         `json:"refunds"`
	BalanceSettings  *jsonfield.CardBalanceSettings `json:"balance_settings"`
}

// cardSettingsJSON renders complete settings (loyalty.CardSettingsOf); a
// sliding expiration always lists its custom_activity_types.
func cardSettingsJSON(s jsonfield.CardSettings) cardSettingsBody {
	exp := map[string]any{}
	if raw, err := json.Marshal(s.PointsExpiration); err == nil {
		_ = json.Unmarshal(raw, &exp)
	}
	if sliding, ok := exp["sliding_expiration"].(map[string]any); ok && sliding["custom_activity_types"] == nil {
		sliding["custom_activity_types"] = []string{}
	}
	return cardSettingsBody{PointsExpiration: exp, EarningLimits: s.EarningLimits, SpendingLimits: s.SpendingLimits,
		Refunds: s.Refunds, BalanceSettings: s.BalanceSettings}
}

// activitySnapshot completes the resource snapshot an activity stored (the
// resource's stored fields as they were) into the resource's document
// shape: a card definition is rendered as cardDefinitionJSON renders it;
// an earning rule and an incentive gain their object and metadata.
func activitySnapshot(kind string, snapshot map[string]any) map[string]any {
	switch kind {
	case "card_definition":
		var d ent.CardDefinition
		raw, err := json.Marshal(snapshot)
		if err != nil || json.Unmarshal(raw, &d) != nil {
			return snapshot
		}
		out := map[string]any{}
		if raw, err := json.Marshal(cardDefinitionJSON(&d)); err == nil && json.Unmarshal(raw, &out) == nil {
			return out
		}
	case "earning_rule", "incentive":
		if snapshot["metadata"] == nil {
			snapshot["metadata"] = map[string]any{}
		}
		snapshot["object"] = kind
	}
	return snapshot
}
