package jsonfield

// Value types of the v2 loyalty area (incentives, rewards, earning rules,
// activities). Optional parts are pointers; the JSON tags are the REST
// interface's field names.

// IDRef is {id}.
type IDRef struct {
	ID string `json:"id"`
}

// SKURef is {product_id, id}.
type SKURef struct {
	ProductID string `json:"product_id"`
	ID        string `json:"id"`
}

// IncentivePoints is a POINTS incentive (or a points effect): a fixed value
// on a card definition's cards.
type IncentivePoints struct {
	Value            *float64          `json:"value"`
	CardDefinitionID *string           `json:"card_definition_id"`
	PointsExpiration *PointsExpiration `json:"points_expiration,omitempty"`
}

// PointsProportional awards points in proportion to an order or customer
// value; calculation_type selects the sub-object that must be present.
type PointsProportional struct {
	CalculationType  *string                 `json:"calculation_type,omitempty"`
	CardDefinitionID *string                 `json:"card_definition_id"`
	Order            *ProportionalOrder      `json:"order,omitempty"`
	Customer         *ProportionalCustomer   `json:"customer,omitempty"`
	OrderItems       *ProportionalOrderItems `json:"order_items,omitempty"`
	PointsExpiration *PointsExpiration       `json:"points_expiration,omitempty"`
}

// ProportionalOrder holds the order-based rules.
type ProportionalOrder struct {
	Amount      *ProportionalRule `json:"amount,omitempty"`
	TotalAmount *ProportionalRule `json:"total_amount,omitempty"`
	Metadata    *ProportionalRule `json:"metadata,omitempty"`
}

// ProportionalCustomer holds the customer-based rule.
type ProportionalCustomer struct {
	Metadata *ProportionalRule `json:"metadata,omitempty"`
}

// ProportionalOrderItems holds the order-item-based rules.
type ProportionalOrderItems struct {
	Amount         *ProportionalRule `json:"amount,omitempty"`
	SubtotalAmount *ProportionalRule `json:"subtotal_amount,omitempty"`
	Quantity       *ProportionalRule `json:"quantity,omitempty"`
}

// ProportionalRule gives value points for every `every` units.
type ProportionalRule struct {
	Every        *float64       `json:"every"`
	Value        *float64       `json:"value"`
	Property     *string        `json:"property,omitempty"`
	ApplicableTo []ApplicableTo `json:"applicable_to,omitempty"`
}

// ApplicableTo names a product, SKU or collection an item rule counts.
type ApplicableTo struct {
	// Type is product, sku or products_collection: the member given
	// (set when the rule is checked, graph/loyalty/points_validation.go).
	Type               *string `json:"type,omitempty"`
	Product            *IDRef  `json:"product,omitempty"`
	SKU                *IDRef  `json:"sku,omitempty"`
	ProductsCollection *IDRef  `json:"products_collection,omitempty"`
}

// MaterialDetail is a physical item: exactly one of product or sku.
type MaterialDetail struct {
	Type    *string `json:"type,omitempty"`
	Product *IDRef  `json:"product"`
	SKU     *SKURef `json:"sku"`
}

// DigitalDetail is a voucher from a campaign: exactly one of
// discount_coupons or gift_vouchers.
type DigitalDetail struct {
	Type            *string          `json:"type,omitempty"`
	DiscountCoupons *CampaignRef     `json:"discount_coupons"`
	GiftVouchers    *GiftVouchersRef `json:"gift_vouchers"`
}

// CampaignRef is {campaign_id}.
type CampaignRef struct {
	CampaignID string `json:"campaign_id"`
}

// GiftVouchersRef is a gift voucher campaign and the balance to load.
type GiftVouchersRef struct {
	CampaignID string `json:"campaign_id"`
	Balance    *int64 `json:"balance"`
}

// PointsExpiration holds exactly one expiration policy.
type PointsExpiration struct {
	RollingExpiration  *RollingExpiration  `json:"rolling_expiration,omitempty"`
	CalendarExpiration *CalendarExpiration `json:"calendar_expiration,omitempty"`
	SlidingExpiration  *SlidingExpiration  `json:"sliding_expiration,omitempty"`
}

// IntValue is {value}, with the unit of a period (DAY, MONTH, YEAR;
// absent: MONTH) or the type of a rounding (END_OF_MONTH, …).
type IntValue struct {
	Value *int    `json:"value"`
	Unit  *string `json:"unit,omitempty"`
	Type  *string `json:"type,omitempty"`
}

// RollingExpiration expires points a period after earning.
type RollingExpiration struct {
	Period   *IntValue `json:"period"`
	Rounding *IntValue `json:"rounding,omitempty"`
}

// CalendarExpiration expires points on fixed days of the year.
type CalendarExpiration struct {
	ExpirationDates []DayMonth `json:"expiration_dates"`
}

// DayMonth is a day of a month.
type DayMonth struct {
	Day   int `json:"day"`
	Month int `json:"month"`
}

// SlidingExpiration extends the expiry on activity.
type SlidingExpiration struct {
	EarningActivity     bool      `json:"earning_activity"`
	SpendingActivity    bool      `json:"spending_activity"`
	CustomActivity      bool      `json:"custom_activity"`
	CustomActivityTypes []string  `json:"custom_activity_types,omitempty"`
	Period              *IntValue `json:"period"`
}

// Earnings are an earning rule's earning definitions.
type Earnings []Earning

// Earning is one earning definition: optional rules, required effects.
type Earning struct {
	Name      *string         `json:"name,omitempty"`
	Rules     EarningRules    `json:"rules,omitempty"`
	Effects   []EarningEffect `json:"effects"`
	TierRules *TierRules      `json:"tier_rules,omitempty"`
}

// EarningRules are an earning's rules as sent: {logic, "1": definition,
// …} — the logic over the numbered rule definitions (the validation rule
// language, graph/validationrule; checked when stored).
type EarningRules map[string]any

// TierRules is {type}.
type TierRules struct {
	Type string `json:"type"`
}

// EarningEffect holds exactly one effect.
type EarningEffect struct {
	Points             *IncentivePoints    `json:"points,omitempty"`
	PointsProportional *PointsProportional `json:"points_proportional,omitempty"`
	Incentive          *IDRef              `json:"incentive,omitempty"`
	// Benefit is the August document's spelling of Incentive; graph/loyalty
	// folds it into Incentive (with a linc_ id) before storing.
	Benefit *IDRef `json:"benefit,omitempty"`
}

// EarningTrigger is what starts an earning rule.
type EarningTrigger struct {
	Event       *string         `json:"event"`
	CustomEvent *CustomEventRef `json:"custom_event"`
	Segment     *IDRef          `json:"segment"`
}

// CustomEventRef is {schema_id}.
type CustomEventRef struct {
	SchemaID string `json:"schema_id"`
}

// EarningValidityHours are daily windows an earning rule applies in.
type EarningValidityHours struct {
	Daily []EarningDaily `json:"daily"`
}

// EarningDaily is one daily window.
type EarningDaily struct {
	DaysOfWeek []int  `json:"days_of_week"`
	StartTime  string `json:"start_time"`
	EndTime    string `json:"end_time"`
}

// TriggerLimits bound how often a rule fires.
type TriggerLimits struct {
	Cooldown  *Cooldown  `json:"cooldown,omitempty"`
	Frequency *Frequency `json:"frequency,omitempty"`
}

// Cooldown is {fixed_cooldown: {period: {value}}}.
type Cooldown struct {
	FixedCooldown *FixedCooldown `json:"fixed_cooldown"`
}

// FixedCooldown is {period: {value, unit}}.
type FixedCooldown struct {
	Period *CooldownPeriod `json:"period"`
}

// CooldownPeriod is a cooldown's length: value units of HOUR (the default),
// DAY, WEEK, MONTH or YEAR.
type CooldownPeriod struct {
	Value *int    `json:"value"`
	Unit  *string `json:"unit,omitempty"`
}

// Frequency lists limits.
type Frequency struct {
	Limits []FrequencyLimit `json:"limits"`
}

// FrequencyLimit caps triggers in a period.
type FrequencyLimit struct {
	Type     string          `json:"type"`
	Period   FrequencyPeriod `json:"period"`
	Triggers struct {
		Max *int `json:"max"`
	} `json:"triggers"`
}

// FrequencyPeriod is the period of a frequency limit.
type FrequencyPeriod struct {
	Type          string         `json:"type"`
	CurrentPeriod map[string]any `json:"current_period,omitempty"`
}

// ActivitySource says who caused an activity.
type ActivitySource struct {
	Channel string        `json:"channel"`
	User    *IDRef        `json:"user,omitempty"`
	APIKey  *APIKeySource `json:"api_key,omitempty"`
}

// APIKeySource is the application key behind an activity. ClientAppID is
// the key's id when it is a client-side key, and null for a server-side
// key (also in records stored before it existed).
type APIKeySource struct {
	Name        string  `json:"name"`
	AppID       string  `json:"app_id"`
	ClientAppID *string `json:"client_app_id"`
}
