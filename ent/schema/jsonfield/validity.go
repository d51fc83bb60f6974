package jsonfield

// ValidityTimeframe is a recurring window: active for Duration every
// Interval (ISO 8601 durations), counted from the resource's start date.
type ValidityTimeframe struct {
	Duration string `json:"duration"`
	Interval string `json:"interval"`
}

// ValidityHours restricts validity to daily time windows.
type ValidityHours struct {
	Daily []DailyValidity `json:"daily"`
}

// DailyValidity is one daily window: from StartTime to ExpirationTime
// (HH:MM) on the given days of the week (0 = Sunday … 6 = Saturday).
type DailyValidity struct {
	StartTime      string `json:"start_time"`
	ExpirationTime string `json:"expiration_time"`
	DaysOfWeek     []int  `json:"days_of_week"`
}
