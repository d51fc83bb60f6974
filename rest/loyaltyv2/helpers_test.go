package loyaltyv2_test

// productMaterial is an incentive's material naming a product.
func productMaterial(product string) map[string]any {
	return map[string]any{"product": map[string]any{"id": product}}
}
