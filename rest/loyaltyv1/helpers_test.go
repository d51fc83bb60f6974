package loyaltyv1_test

// num is a JSON number (0 when v is not one).
func num(v any) float64 { f, _ := v.(float64); return f }
