package export

import (
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
	entcategory "github.com/promoengine/promoengine/ent/category"
	entcustomer "github.com/promoengine/promoengine/ent/customer"
	entorder "github.com/promoengine/promoengine/ent/order"
	entpublication "github.com/promoengine/promoengine/ent/publication"
	entredemption "github.com/promoengine/promoengine/ent/redemption"
	entvoucher "github.com/promoengine/promoengine/ent/voucher"
)

// The documented filter members and orders of each exported object
// (exports.json: Export<Object>Filters, Export<Object>Order), as columns of
// this server's tables. A few members are also kept that earlier
// versions accepted (id, tracking_id, campaign_id, channel). Documented
// members this server has no data for are refused by name (docs/exports.md).

// publicationVouchers is the join table of publications and their codes.
const publicationVouchers = "publication_vouchers"

// campaignNamed is a member naming a campaign (by name) through the row's
// campaign_id.
func campaignNamed(col string) filterColumn {
	return via(col, entcampaign.Table, entcampaign.FieldID, true, textCol(entcampaign.FieldName))
}

// customerNamed is a member naming a customer by ID or source_id.
func customerNamed(col string) filterColumn {
	return via(col, entcustomer.Table, entcustomer.FieldID, true, textCol(entcustomer.FieldID), textCol(entcustomer.FieldSourceID))
}

// publicationVoucher is a publication member read from its codes' vouchers.
func publicationVoucher(on filterColumn) filterColumn {
	return via(entpublication.FieldID, publicationVouchers, "publication_id", false,
		via("voucher_id", entvoucher.Table, entvoucher.FieldID, true, on))
}

var voucherFilters = filterSet{members: map[string]filterColumn{
	"code": textCol(entvoucher.FieldCode), "vouchers": textCol(entvoucher.FieldID),
	"created_at": timeCol(entvoucher.FieldCreatedAt), "created_date": timeCol(entvoucher.FieldCreatedAt),
	"updated_at": timeCol(entvoucher.FieldUpdatedAt), "start_date": timeCol(entvoucher.FieldStartDate),
	"expiration_date": timeCol(entvoucher.FieldExpirationDate), "active": boolCol(entvoucher.FieldActive),
	"is_referral_code": boolCol(entvoucher.FieldIsReferralCode), "holder_id": textCol(entvoucher.FieldHolderID),
	"published_for_customer_id": textCol(entvoucher.FieldHolderID), "category_ids": textCol(entvoucher.FieldCategoryID),
	"categories": via(entvoucher.FieldCategoryID, entcategory.Table, entcategory.FieldID, true,
		textCol(entcategory.FieldName), textCol(entcategory.FieldID)),
	"campaign_id": textCol(entvoucher.FieldCampaignID),
}, prefixes: map[string]string{"metadata": entvoucher.FieldMetadata}}

var voucherOrders = map[string]sortExpr{"updated_at": sortUpdated, "code": sortColumn(entvoucher.FieldCode)}

var redemptionFilters = filterSet{members: map[string]filterColumn{
	"created_at": timeCol(entredemption.FieldCreatedAt), "campaign": campaignNamed(entredemption.FieldCampaignID),
	"campaign_name": campaignNamed(entredemption.FieldCampaignID), "customer": customerNamed(entredemption.FieldCustomerID),
	"voucher": textCol(entredemption.FieldVoucherCode), "voucher_code": textCol(entredemption.FieldVoucherCode),
	"related_object": textCol(entredemption.FieldRelatedObjectType), "related_object_id": textCol(entredemption.FieldRelatedObjectID),
	"related_object_parent_id": textCol(entredemption.FieldCampaignID), "parent_redemption_id": textCol(entredemption.FieldParentID),
	"failure_code": textCol(entredemption.FieldFailureCode), "result": textCol(entredemption.FieldResult),
	"object": textCol(entredemption.FieldObject), "customer_id": textCol(entredemption.FieldCustomerID),
	"status": textCol(entredemption.FieldStatus),
	"id":     textCol(entredemption.FieldID), "tracking_id": textCol(entredemption.FieldTrackingID),
	"campaign_id": textCol(entredemption.FieldCampaignID),
}, prefixes: map[string]string{"metadata": entredemption.FieldMetadata}}

var redemptionOrders = map[string]sortExpr{"id": sortColumn(entredemption.FieldID),
	"voucher_code": sortText(entredemption.FieldVoucherCode), "tracking_id": sortText(entredemption.FieldTrackingID),
	"customer_id": sortText(entredemption.FieldCustomerID)}

var customerFilters = filterSet{members: map[string]filterColumn{
	"created_at": timeCol(entcustomer.FieldCreatedAt), "updated_at": timeCol(entcustomer.FieldUpdatedAt),
	"email": textCol(entcustomer.FieldEmail), "name": textCol(entcustomer.FieldName),
	"city": {col: entcustomer.FieldAddress, path: []string{"city"}}, "phone": textCol(entcustomer.FieldPhone),
	"birthday": textCol(entcustomer.FieldBirthday), "source_id": textCol(entcustomer.FieldSourceID),
	"publications.created_at": via(entcustomer.FieldID, entpublication.Table, entpublication.FieldCustomerID, true,
		timeCol(entpublication.FieldCreatedAt)),
	"publications.related_object_id": via(entcustomer.FieldID, entpublication.Table, entpublication.FieldCustomerID, true,
		via(entpublication.FieldID, publicationVouchers, "publication_id", false, textCol("voucher_id"))),
	"id": textCol(entcustomer.FieldID),
}, prefixes: map[string]string{"metadata": entcustomer.FieldMetadata, "address": entcustomer.FieldAddress,
	"system_metadata": entcustomer.FieldSystemMetadata}}

var customerOrders = map[string]sortExpr{"name": sortText(entcustomer.FieldName), "id": sortColumn(entcustomer.FieldID),
	"email": sortText(entcustomer.FieldEmail), "source_id": sortText(entcustomer.FieldSourceID), "updated_at": sortUpdated}

var publicationFilters = filterSet{members: map[string]filterColumn{
	"created_at": timeCol(entpublication.FieldCreatedAt), "campaign": campaignNamed(entpublication.FieldCampaignID),
	"campaign_name": campaignNamed(entpublication.FieldCampaignID), "customer": customerNamed(entpublication.FieldCustomerID),
	"voucher": publicationVoucher(textCol(entvoucher.FieldCode)),
	"result":  textCol(entpublication.FieldResult), "customer_id": textCol(entpublication.FieldCustomerID),
	"voucher_type":      publicationVoucher(textCol(entvoucher.FieldType)),
	"is_referral_code":  publicationVoucher(boolCol(entvoucher.FieldIsReferralCode)),
	"parent_object_id":  textCol(entpublication.FieldCampaignID),
	"related_object_id": via(entpublication.FieldID, publicationVouchers, "publication_id", false, textCol("voucher_id")),
	"source_id":         textCol(entpublication.FieldSourceID),
	"id":                textCol(entpublication.FieldID), "channel": textCol(entpublication.FieldChannel),
	"campaign_id": textCol(entpublication.FieldCampaignID), "tracking_id": textCol(entpublication.FieldTrackingID),
}, prefixes: map[string]string{"metadata": entpublication.FieldMetadata}}

var publicationOrders = map[string]sortExpr{"id": sortColumn(entpublication.FieldID),
	"voucher_code": func(c func(string) string) string {
		return "COALESCE((SELECT MIN(v.code) FROM publication_vouchers pv JOIN vouchers v ON v.id = pv.voucher_id WHERE pv.publication_id = " +
			c(entpublication.FieldID) + "), '')"
	},
	"tracking_id": sortText(entpublication.FieldTrackingID), "customer_id": sortText(entpublication.FieldCustomerID),
	"channel": sortText(entpublication.FieldChannel)}

var orderFilterSet = filterSet{members: map[string]filterColumn{
	"created_at": timeCol(entorder.FieldCreatedAt), "updated_at": timeCol(entorder.FieldUpdatedAt),
	"status": textCol(entorder.FieldStatus), "source_id": textCol(entorder.FieldSourceID),
	"amount": numberCol(entorder.FieldAmount), "total_amount": numberCol(entorder.FieldTotalAmount),
	"discount_amount": numberCol(entorder.FieldDiscountAmount), "total_discount_amount": numberCol(entorder.FieldTotalDiscountAmount),
	"items_discount_amount": numberCol(entorder.FieldItemsDiscountAmount),
	"id":                    textCol(entorder.FieldID), "customer_id": textCol(entorder.FieldCustomerID),
}, prefixes: map[string]string{"metadata": entorder.FieldMetadata}}

var orderOrders = map[string]sortExpr{"updated_at": sortUpdated, "status": sortColumn(entorder.FieldStatus)}
