// Drives the official Node SDK (@voucherify/sdk, pinned in package.json)
// against a running promoengine: API_URL, APP_ID and APP_TOKEN name it.
// Run by .ci/sdk-check.
const { VoucherifyServerSide } = require('@voucherify/sdk')
const client = VoucherifyServerSide({ applicationId: process.env.APP_ID, secretKey: process.env.APP_TOKEN, apiUrl: process.env.API_URL })
// assert(cond, msg[, got]): on failure, got (the response or the fields of it that matter) is printed too.
const assert = (cond, msg, ...got) => {
  if (!cond) { console.error('FAIL:', msg, ...got.map(g => JSON.stringify(g))); process.exitCode = 1 } else console.log('ok  ', msg)
}
// expectError(fn, pred, msg): fn must reject with a VoucherifyError for which pred holds.
const expectError = async (fn, pred, msg) => {
  let res
  try { res = await fn() } catch (e) {
    return assert(pred(e), msg, { code: e.code, key: e.key, message: e.message, details: e.details })
  }
  assert(false, msg + ' (no error was thrown)', res)
}
const pick = (obj, ...keys) => Object.fromEntries(keys.map(k => [k, obj == null ? undefined : obj[k]]))
;(async () => {
  const camp = await client.campaigns.create({ name: 'SDK Summer', campaign_type: 'DISCOUNT_COUPONS', type: 'STATIC',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 15 }, code_config: { pattern: 'SDK-####' } } })
  assert(camp.id.startsWith('camp_') && camp.object === 'campaign', 'campaigns.create')
  const got = await client.campaigns.get('SDK Summer')
  assert(got.id === camp.id, 'campaigns.get by name (with a space)')
  const v = await client.campaigns.addVoucher('SDK Summer', {})
  assert(/^SDK-/.test(v.code) && v.object === 'voucher', 'campaigns.addVoucher (empty body) -> ' + v.code)
  const v2 = await client.campaigns.addVoucher('SDK Summer', { code: 'PCT 50%/X' })
  const fetched = await client.vouchers.get('PCT 50%/X')
  assert(fetched.id === v2.id, 'vouchers.get with %, / and space in the code')
  const job = await client.campaigns.addVoucher(camp.id, {}, { vouchers_count: 5 })
  assert(job.async_action_id && job.async_action_id.startsWith('aa_'), 'campaigns.addVoucher vouchers_count=5 -> async action')
  let aa
  for (let i = 0; i < 200; i++) {
    aa = await client.asyncActions.get(job.async_action_id)
    if (aa.status === 'DONE' || aa.status === 'FAILED') break
    await new Promise(r => setTimeout(r, 100))
  }
  assert(aa.status === 'DONE', 'asyncActions.get -> ' + aa.status)
  const pub = await client.distributions.publications.create({ campaign: { name: 'SDK Summer' }, customer: { source_id: 'sdk-customer', email: 'sdk@example.com' }, channel: null, metadata: null })
  assert(pub.object === 'publication' && pub.voucher && pub.voucher.holder_id === pub.customer_id, 'publications.create')
  const again = await client.distributions.publications.create({ campaign: { name: 'SDK Summer' }, customer: { source_id: 'sdk-customer' }, join_once: true })
  const again2 = await client.distributions.publications.create({ campaign: { name: 'SDK Summer' }, customer: { source_id: 'sdk-customer' }, join_once: true })
  assert(again.voucher.code === again2.voucher.code, 'publications.create join_once in body -> same code')
  const cust = await client.customers.get('sdk-customer')
  assert(cust.email === 'sdk@example.com' && cust.object === 'customer', 'customers.get by source_id')
  try { await client.campaigns.get('no such campaign'); assert(false, 'expected 404') }
  catch (e) { assert(e.code === 404 && e.key === 'not_found' && e.request_id && e.resource_type === 'campaign', 'VoucherifyError on 404: ' + e.key) }
  try { await client.distributions.publications.create({ customer: { source_id: 'x' } }); assert(false, 'expected 400') }
  catch (e) { assert(e.code === 400 && e.key === 'missing_vouchers', 'VoucherifyError missing_vouchers') }

  // Validation and redemption, stacked and legacy, with rollbacks.
  const redeemCamp = await client.campaigns.create({ name: 'SDK Redeem', campaign_type: 'DISCOUNT_COUPONS', type: 'STATIC',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } } })
  assert(redeemCamp.id.startsWith('camp_'), 'campaigns.create SDK Redeem (AMOUNT 500)', redeemCamp)
  const r1 = await client.campaigns.addVoucher('SDK Redeem', { code: 'SDK-R1', redemption: { quantity: 1 } })
  assert(r1.code === 'SDK-R1' && r1.redemption && r1.redemption.quantity === 1, 'campaigns.addVoucher SDK-R1 with redemption.quantity=1', r1)

  const val = await client.validations.validateVoucher('SDK-R1', { order: { amount: 2000 } })
  assert(val.valid === true && val.order && val.order.total_amount === 1500 && val.discount && val.discount.amount_off === 500,
    'validations.validateVoucher -> valid, order.total_amount 1500, discount.amount_off 500', val)

  const sv = await client.validations.validateStackable({ redeemables: [{ object: 'voucher', id: 'SDK-R1' }],
    order: { items: [{ product_id: 'p1', quantity: 2, price: 1000 }] } })
  assert(sv.valid === true && sv.redeemables && sv.redeemables[0] && sv.redeemables[0].status === 'APPLICABLE',
    'validations.validateStackable -> valid, redeemables[0] APPLICABLE', sv)
  assert(sv.order && sv.order.amount === 2000 && sv.order.total_amount === 1500,
    'validations.validateStackable order from items -> amount 2000, total_amount 1500', sv.order)

  const rs = await client.redemptions.redeemStackable({ redeemables: [{ object: 'voucher', id: 'SDK-R1' }],
    order: { source_id: 'sdk-order-1', amount: 2000 }, customer: { source_id: 'sdk-customer' } })
  const parentId = rs.parent_redemption && rs.parent_redemption.id
  assert(typeof parentId === 'string' && parentId.startsWith('r_'), 'redemptions.redeemStackable -> parent_redemption ' + parentId, rs)
  assert(Array.isArray(rs.redemptions) && rs.redemptions.length === 1 && rs.redemptions[0].redemption === parentId,
    'redemptions.redeemStackable -> one child redemption pointing at the parent', rs.redemptions)
  assert(rs.order && rs.order.total_amount === 1500, 'redemptions.redeemStackable -> order.total_amount 1500', rs.order)
  const childId = rs.redemptions && rs.redemptions[0] && rs.redemptions[0].id

  await expectError(() => client.redemptions.redeem('SDK-R1', { customer: { source_id: 'sdk-customer' } }),
    e => e.code === 400 && e.key === 'quantity_exceeded', 'redemptions.redeem past the quantity -> 400 quantity_exceeded')

  const forV = await client.redemptions.getForVoucher('SDK-R1')
  assert(forV.total === 2 && forV.redeemed_quantity === 1 && forV.data_ref === 'redemption_entries',
    'redemptions.getForVoucher -> total 2, redeemed_quantity 1, data_ref redemption_entries', pick(forV, 'total', 'redeemed_quantity', 'data_ref'))
  const results = (forV.redemption_entries || []).map(r => r.result).sort().join(',')
  assert(results === 'FAILURE,SUCCESS', 'redemptions.getForVoucher -> one SUCCESS and one FAILURE entry', forV.redemption_entries)

  const child = await client.redemptions.get(childId)
  assert(child.id === childId && child.result === 'SUCCESS' && child.voucher && child.voucher.code === 'SDK-R1',
    'redemptions.get (child) -> SUCCESS, voucher SDK-R1', child)

  const failures = await client.redemptions.list({ limit: 5, result: 'FAILURE' })
  assert(failures.total >= 1 && Array.isArray(failures.redemptions) && failures.redemptions.length >= 1 && failures.redemptions.length <= 5 &&
    failures.redemptions.every(r => r.result === 'FAILURE'), 'redemptions.list limit=5 result=FAILURE -> only failures', failures)
  const byCustomer = await client.redemptions.list({ customer: 'sdk-customer' })
  assert((byCustomer.redemptions || []).some(r => r.id === childId && r.result === 'SUCCESS'),
    'redemptions.list customer=sdk-customer -> has the success', byCustomer)

  await expectError(() => client.redemptions.rollback(childId, 'x'),
    e => e.key === 'invalid_redemption_parent', 'redemptions.rollback of a stacked child -> invalid_redemption_parent')
  const rb = await client.redemptions.rollbackStackable(parentId)
  assert(rb.parent_rollback && rb.parent_rollback.object === 'redemption_rollback' && Array.isArray(rb.rollbacks) && rb.rollbacks.length === 1,
    'redemptions.rollbackStackable (no body) -> parent_rollback and one rollback', rb)
  await expectError(() => client.redemptions.rollbackStackable(parentId),
    e => e.key === 'already_rolled_back', 'redemptions.rollbackStackable again -> already_rolled_back')
  const r1After = await client.vouchers.get('SDK-R1')
  assert(r1After.redemption && r1After.redemption.redeemed_quantity === 0, 'vouchers.get after the rollback -> redeemed_quantity 0', r1After.redemption)

  const r2 = await client.campaigns.addVoucher('SDK Redeem', { code: 'SDK-R2' })
  assert(r2.code === 'SDK-R2' && r2.redemption && r2.redemption.quantity == null, 'campaigns.addVoucher SDK-R2 (unlimited)', r2)
  const legacy = await client.redemptions.redeem('SDK-R2', { tracking_id: 'track-1', order: { amount: 1000 } })
  assert(legacy.object === 'redemption' && legacy.result === 'SUCCESS' && legacy.order && legacy.order.total_amount === 500,
    'redemptions.redeem (legacy) -> SUCCESS, order.total_amount 500', legacy)
  const lrb = await client.redemptions.rollback(legacy.id, { reason: 'sdk test' })
  assert(lrb.object === 'redemption_rollback' && lrb.reason === 'sdk test',
    'redemptions.rollback (reason in the query) -> redemption_rollback with the reason', lrb)

  const gift = await client.campaigns.create({ name: 'SDK Gift', campaign_type: 'GIFT_VOUCHERS', type: 'STATIC',
    voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000 } } })
  assert(gift.id.startsWith('camp_'), 'campaigns.create SDK Gift (GIFT_VOUCHERS, 5000)', gift)
  const g1v = await client.campaigns.addVoucher('SDK Gift', { code: 'SDK-G1' })
  assert(g1v.code === 'SDK-G1' && g1v.gift && g1v.gift.balance === 5000, 'campaigns.addVoucher SDK-G1 -> gift balance 5000', g1v)
  const gr = await client.redemptions.redeemStackable({ redeemables: [{ object: 'voucher', id: 'SDK-G1', gift: { credits: 1200 } }], order: { amount: 3000 } })
  assert(gr.order && gr.order.total_amount === 1800, 'redemptions.redeemStackable gift credits 1200 -> order.total_amount 1800', gr)
  const g1 = await client.vouchers.get('SDK-G1')
  assert(g1.gift && g1.gift.balance === 3800, 'vouchers.get gift card -> balance 3800', g1.gift)
  const g1tx = await client.vouchers.listTransactions('SDK-G1', { limit: 10 })
  assert(g1tx.object === 'list' && g1tx.data.length >= 1 && g1tx.data[0].type === 'CREDITS_REDEMPTION', 'vouchers.listTransactions -> the redemption', g1tx.data.map(t => t.type))

  const lock = await client.validations.validateStackable({ redeemables: [{ object: 'voucher', id: 'SDK-G1', gift: { credits: 100 } }],
    order: { amount: 1000 }, session: { type: 'LOCK' } })
  assert(lock.session && typeof lock.session.key === 'string' && lock.session.key.startsWith('ssn_') && lock.session.type === 'LOCK',
    'validations.validateStackable session LOCK -> ssn_ key', lock)
  // The SDK's own session release (DELETE /v1/vouchers/{code}/sessions/{key}): the locked credits are free again.
  await client.vouchers.releaseValidationSession('SDK-G1', lock.session.key)
  const lockAgain = await client.validations.validateStackable({ redeemables: [{ object: 'voucher', id: 'SDK-G1', gift: { credits: 100 } }],
    order: { amount: 1000 }, session: { type: 'LOCK' } })
  assert(lockAgain.valid === true && lockAgain.session.key !== lock.session.key, 'vouchers.releaseValidationSession -> a new lock of the same credits', lockAgain)
  await client.vouchers.releaseValidationSession('SDK-G1', lockAgain.session.key)
  const txExport = await client.vouchers.exportTransactions('SDK-G1', { parameters: { fields: ['id', 'type', 'amount'] } })
  assert(/^exp_/.test(txExport.id) && txExport.exported_object === 'voucher_transactions' && txExport.status === 'SCHEDULED',
    'vouchers.exportTransactions', txExport)

  // Campaign lifecycle and lists.
  await client.campaigns.create({ name: 'SDK Lifecycle', type: 'STATIC', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })
  await client.campaigns.addVoucher('SDK Lifecycle', { code: 'SDK-L1' })
  const campaignList = await client.campaigns.list({ limit: 100, order: '-created_at' })
  assert(campaignList.object === 'list' && campaignList.data_ref === 'campaigns' && campaignList.campaigns[0].name === 'SDK Lifecycle' &&
    campaignList.total === campaignList.campaigns.length, 'campaigns.list -> newest first, total', pick(campaignList, 'total', 'data_ref'))
  const updated = await client.campaigns.update('SDK Lifecycle', { description: 'updated by the SDK', metadata: { tier: 'gold' } })
  assert(updated.description === 'updated by the SDK' && updated.metadata.tier === 'gold', 'campaigns.update', pick(updated, 'description', 'metadata'))
  const disabled = await client.campaigns.disable('SDK Lifecycle')
  assert(disabled.active === false, 'campaigns.disable -> active false', pick(disabled, 'active'))
  const enabled = await client.campaigns.enable('SDK Lifecycle')
  assert(enabled.active === true, 'campaigns.enable -> active true', pick(enabled, 'active'))
  const voucherList = await client.vouchers.list({ campaign: 'SDK Lifecycle' })
  assert(voucherList.object === 'list' && voucherList.total === 1 && voucherList.vouchers[0].code === 'SDK-L1', 'vouchers.list campaign filter', pick(voucherList, 'total'))
  const solo = await client.vouchers.create({ code: 'SDK-SOLO', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 250 } })
  assert(solo.code === 'SDK-SOLO' && solo.campaign == null && solo.discount.amount_off === 250, 'vouchers.create (standalone)', pick(solo, 'code', 'campaign', 'discount'))
  const vUpdated = await client.vouchers.update({ code: 'SDK-L1', metadata: { shelf: 'A' }, additional_info: 'sdk' })
  assert(vUpdated.code === 'SDK-L1' && vUpdated.metadata.shelf === 'A' && vUpdated.additional_info === 'sdk', 'vouchers.update', pick(vUpdated, 'metadata', 'additional_info'))
  const vOff = await client.vouchers.disable('SDK-L1')
  assert(vOff.active === false, 'vouchers.disable -> active false', pick(vOff, 'active'))
  const vOn = await client.vouchers.enable('SDK-L1')
  assert(vOn.active === true, 'vouchers.enable -> active true', pick(vOn, 'active'))
  const certain = await client.campaigns.addCertainVoucher('SDK Lifecycle', 'SDK-L2', { metadata: { certain: true } })
  assert(certain.code === 'SDK-L2' && certain.metadata.certain === true, 'campaigns.addCertainVoucher', pick(certain, 'code', 'metadata'))
  await client.vouchers.delete('SDK-L2', { force: true })
  await expectError(() => client.vouchers.get('SDK-L2'), e => e.code === 404, 'vouchers.delete -> then 404')
  const deletion = await client.campaigns.delete('SDK Lifecycle', { force: true })
  assert(deletion.async_action_id && deletion.async_action_id.startsWith('aa_'), 'campaigns.delete -> async action', deletion)
  let del
  for (let i = 0; i < 200; i++) {
    del = await client.asyncActions.get(deletion.async_action_id)
    if (del.status === 'DONE' || del.status === 'FAILED') break
    await new Promise(r => setTimeout(r, 100))
  }
  assert(del.status === 'DONE', 'asyncActions.get of the deletion -> ' + del.status, del)
  await expectError(() => client.campaigns.get('SDK Lifecycle'), e => e.code === 404, 'campaigns.get after the deletion -> 404')
  const actions = await client.asyncActions.list({ limit: 3 })
  assert(actions.object === 'list' && actions.data_ref === 'async_actions' && actions.async_actions[0].id === deletion.async_action_id,
    'asyncActions.list -> newest first', actions.async_actions.map(a => a.id))

  const pubList = await client.distributions.publications.list({ customer: 'sdk-customer', limit: 5 })
  assert(pubList.object === 'list' && pubList.data_ref === 'publications' && pubList.total >= 1 &&
    pubList.publications.every(p => p.customer.source_id === 'sdk-customer'), 'distributions.publications.list customer filter', pick(pubList, 'total'))
  // Customers: list, scroll, update, delete.
  for (const sid of ['sdk-c1', 'sdk-c2', 'sdk-c3']) {
    await client.customers.create({ source_id: sid, address: { city: 'Sopot' } })
    await new Promise(r => setTimeout(r, 5))
  }
  const custList = await client.customers.list({ city: 'Sopot', limit: 2 })
  assert(custList.object === 'list' && custList.data_ref === 'customers' && custList.total === 3 && custList.customers.length === 2 &&
    custList.has_more === true, 'customers.list city filter, page of 2, has_more', pick(custList, 'total', 'has_more'))
  const scrolled = []
  for await (const cust of client.customers.scroll({ city: 'Sopot', limit: 1, order: 'created_at' })) scrolled.push(cust.source_id)
  assert(scrolled.join(',') === 'sdk-c1,sdk-c2,sdk-c3', 'customers.scroll (starting_after) -> every customer once, oldest first', scrolled)
  const sdkSeg = await client.segments.create({ name: 'SDK static', type: 'static', customers: ['sdk-c1'] })
  const c1Segs = await client.segments.list('sdk-c1')
  assert(c1Segs.object === 'list' && c1Segs.total === 1 && c1Segs.data[0].id === sdkSeg.id, 'segments.list(customerId) -> the static segment', c1Segs)
  const custUpdated = await client.customers.update({ source_id: 'sdk-c1', name: 'Updated' })
  assert(custUpdated.name === 'Updated' && custUpdated.source_id === 'sdk-c1', 'customers.update by source_id', pick(custUpdated, 'name'))

  // Legacy consents (defined through GraphQL; the REST side lists them and records a customer's choices).
  const gql = async (query, variables) => {
    const res = await fetch(process.env.API_URL + '/graphql', { method: 'POST', body: JSON.stringify({ query, variables }),
      headers: { 'Content-Type': 'application/json', 'X-App-Id': process.env.APP_ID, 'X-App-Token': process.env.APP_TOKEN } })
    return res.json()
  }
  const made = await gql('mutation($i: ConsentInput!) { createConsent(input: $i) { id } }', { i: { name: 'Newsletter', category: 'marketing' } })
  const consentId = made.data && made.data.createConsent.id
  await gql('mutation($i: ConsentGroupInput!) { createConsentGroup(input: $i) { id } }', { i: { name: 'Marketing', consents: [consentId] } })
  const consents = await client.consents.list()
  assert(consents.consents.total === 1 && consents.consents.data[0].id === consentId && consents.consents.data[0].object === 'consent' &&
    consents.groups.data[0].consents[0] === consentId && consents.groups.data[0].object === 'consent_group',
    'consents.list -> the consent and its group', consents)
  const given = await client.customers.updateConsents('sdk-c1', { [consentId]: true })
  assert(given === undefined || given === '', 'customers.updateConsents -> undefined', given)
  await expectError(() => client.customers.updateConsents('sdk-c1', { cnst_unknown: true }),
    e => e.code === 404 && e.resource_type === 'consent', 'customers.updateConsents unknown consent -> 404 consent')
  await client.customers.updateConsents('sdk-c1', { unsubscribed: true })
  const consentActs = await client.customers.listActivities('sdk-c1', { limit: 5 })
  assert(consentActs.data.map(a => a.type).slice(0, 2).join(',') === 'customer.consents.revoked,customer.consents.given',
    'customers.updateConsents records given, then revoked (unsubscribed)', consentActs.data.map(a => a.type))
  await client.customers.delete('sdk-c2')
  await expectError(() => client.customers.get('sdk-c2'), e => e.code === 404, 'customers.delete -> then 404')
  const permanent = await client.customers.deletePermanently('sdk-c3')
  assert(permanent.status === 'DONE' && permanent.related_object === 'customer', 'customers.deletePermanently', permanent)
  // Categories, a campaign's categories, customer activities, voucher import and bulk update.
  const waitJob = async id => {
    let job
    for (let i = 0; i < 200; i++) {
      job = await client.asyncActions.get(id)
      if (job.status === 'DONE' || job.status === 'FAILED') break
      await new Promise(r => setTimeout(r, 100))
    }
    return job
  }
  const cat = await client.categories.create({ name: 'SDK Category', hierarchy: 1 })
  assert(cat.id.startsWith('cat_') && cat.object === 'category' && cat.hierarchy === 1, 'categories.create', cat)
  const catGot = await client.categories.get(cat.id)
  assert(catGot.id === cat.id && catGot.name === 'SDK Category', 'categories.get', catGot)
  const catUp = await client.categories.update(cat.id, { name: 'SDK Stacking', hierarchy: 2 })
  assert(catUp.name === 'SDK Stacking' && catUp.hierarchy === 2 && typeof catUp.updated_at === 'string', 'categories.update', catUp)
  const catList = await client.categories.list()
  assert(catList.object === 'list' && catList.data_ref === 'data' && catList.total === 1 && catList.data[0].id === cat.id,
    'categories.list', catList)
  const catCamp = await client.campaigns.create({ name: 'SDK Categorized', type: 'STATIC', category_id: cat.id,
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })
  assert(catCamp.category === 'SDK Stacking' && catCamp.category_id === cat.id && catCamp.categories.length === 1 &&
    catCamp.categories[0].id === cat.id, 'campaigns.create with category_id -> category, categories', pick(catCamp, 'category', 'category_id', 'categories'))
  const expandedList = await client.campaigns.list({ expand: 'category', limit: 100 })
  const listed = expandedList.campaigns.find(c => c.id === catCamp.id)
  assert(listed && listed.categories.length === 1 && listed.categories[0].name === 'SDK Stacking', 'campaigns.list expand=category', listed)
  const catVoucher = await client.vouchers.create({ code: 'SDK-CAT', type: 'DISCOUNT_VOUCHER', category_id: cat.id,
    discount: { type: 'AMOUNT', amount_off: 100 } })
  assert(catVoucher.category_id === cat.id && catVoucher.categories.length === 1 && catVoucher.categories[0].id === cat.id,
    'vouchers.create with category_id -> categories', pick(catVoucher, 'category', 'category_id', 'categories'))
  const catValid = await client.validations.validateStackable({ redeemables: [{ object: 'voucher', id: 'SDK-CAT' }], order: { amount: 1000 } })
  assert(catValid.valid === true && catValid.redeemables[0].categories.length === 1 && catValid.redeemables[0].categories[0].id === cat.id,
    'validations.validateStackable shows the redeemable\'s category', catValid.redeemables)
  await client.categories.delete(cat.id)
  await expectError(() => client.categories.get(cat.id), e => e.code === 404 && e.resource_type === 'category', 'categories.delete -> then 404')
  const uncategorized = await client.campaigns.get('SDK Categorized')
  assert(uncategorized.category_id === null && uncategorized.categories.length === 0, 'campaigns.get after its category was deleted',
    pick(uncategorized, 'category', 'category_id', 'categories'))
  const acts = await client.customers.listActivities('sdk-customer', { limit: 100 })
  assert(acts.object === 'list' && acts.data_ref === 'data' && acts.total === acts.data.length &&
    acts.data.some(a => a.type === 'customer.publication.succeeded') && acts.data.some(a => a.type === 'customer.redemption.succeeded'),
    'customers.listActivities -> publications and redemptions', acts.data.map(a => a.type))
  const imported = await client.vouchers.import([{ code: 'SDK-IMP-1', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    { code: 'SDK-IMP-2', type: 'GIFT_VOUCHER', gift: { amount: 1000 }, metadata: { batch: 1 } }])
  const importJob = await waitJob(imported.async_action_id)
  assert(importJob.type === 'VOUCHERS.IMPORT' && importJob.status === 'DONE' && importJob.result.done_count === 2,
    'vouchers.import -> async action VOUCHERS.IMPORT done', importJob)
  const bulk = await client.vouchers.bulkUpdate([{ code: 'SDK-IMP-1', metadata: { via: 'bulk' } }, { code: 'SDK-IMP-2', metadata: { via: 'bulk' } }])
  const bulkJob = await waitJob(bulk.async_action_id)
  const imp2 = await client.vouchers.get('SDK-IMP-2')
  assert(bulkJob.type === 'VOUCHERS.BULK_UPDATE' && bulkJob.status === 'DONE' && imp2.metadata.via === 'bulk' && imp2.metadata.batch === 1,
    'vouchers.bulkUpdate -> metadata merged', { job: bulkJob, metadata: imp2.metadata })
  // Bulk jobs and imports of customers and vouchers, generic exports (issue #32; docs/imports.md, docs/exports.md).
  const metaJob = await waitJob((await client.vouchers.bulkUpdateMetadata({ codes: ['SDK-IMP-1', 'SDK-NONE'], metadata: { via: 'meta' } })).async_action_id)
  assert(metaJob.type === 'VOUCHERS.METADATA_UPDATE' && metaJob.result.done_count === 1 && metaJob.result.failed_count === 1 &&
    (await client.vouchers.get('SDK-IMP-1')).metadata.via === 'meta', 'vouchers.bulkUpdateMetadata -> VOUCHERS.METADATA_UPDATE', metaJob)
  const csvDir = require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'sdk-'))
  const vouchersCSV = require('path').join(csvDir, 'vouchers.csv')
  require('fs').writeFileSync(vouchersCSV, 'Code,Value,Discount Type,region\nSDK-CSV-1,15,PERCENT,north\n')
  const csvJob = await waitJob((await client.vouchers.importCSV(vouchersCSV)).async_action_id)
  assert(csvJob.type === 'VOUCHERS.IMPORT_CSV' && csvJob.result.done_count === 1 &&
    (await client.vouchers.get('SDK-CSV-1')).discount.percent_off === 15, 'vouchers.importCSV -> VOUCHERS.IMPORT_CSV', csvJob)
  const customersCSV = require('path').join(csvDir, 'customers.csv')
  require('fs').writeFileSync(customersCSV, 'Source_id,Name,tier\nsdk-csv-cust,CSV Customer,gold\n')
  const custCSVJob = await waitJob((await client.customers.importCSV(customersCSV)).async_action_id)
  assert(custCSVJob.type === 'CUSTOMERS.IMPORT_CSV' && custCSVJob.result.done_count === 1 &&
    (await client.customers.get('sdk-csv-cust')).metadata.tier === 'gold', 'customers.importCSV -> CUSTOMERS.IMPORT_CSV', custCSVJob)
  const custBulk = await waitJob((await client.customers.updateInBulk([{ source_id: 'sdk-csv-cust', email: 'csv@example.com' }])).async_action_id)
  const custMeta = await waitJob((await client.customers.updateMetadataInBulk({ source_ids: ['sdk-csv-cust'], metadata: { via: 'bulk' } })).async_action_id)
  const csvCust = await client.customers.get('sdk-csv-cust')
  assert(custBulk.type === 'CUSTOMERS.BULK_UPDATE' && custMeta.type === 'CUSTOMERS.METADATA_UPDATE' && csvCust.email === 'csv@example.com' &&
    csvCust.metadata.via === 'bulk' && csvCust.metadata.tier === 'gold', 'customers.updateInBulk and updateMetadataInBulk', { custBulk, custMeta, csvCust })
  const created = await client.distributions.exports.create({ exported_object: 'customer', parameters: { fields: ['source_id', 'name'] } })
  assert(/^exp_/.test(created.id) && created.exported_object === 'customer' && created.status === 'SCHEDULED', 'exports.create', created)
  let gotExport = await client.distributions.exports.get(created.id)
  for (let i = 0; i < 200 && gotExport.status !== 'DONE'; i++) { await new Promise(r => setTimeout(r, 50)); gotExport = await client.distributions.exports.get(created.id) }
  const exportList = await client.distributions.exports.list({ limit: 100 })
  assert(gotExport.status === 'DONE' && typeof gotExport.result.url === 'string' && exportList.data_ref === 'exports' &&
    exportList.exports.some(x => x.id === created.id), 'exports.get and exports.list', { gotExport, total: exportList.total })
  await client.distributions.exports.delete(created.id)
  await expectError(() => client.distributions.exports.get(created.id), e => e.code === 404, 'exports.delete -> then 404')
  // A campaign's codes imported from a list and from a CSV file (async actions).
  const impCamp = await client.campaigns.create({ name: 'SDK Import', campaign_type: 'DISCOUNT_COUPONS', type: 'STATIC',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })
  const impJob = await waitJob((await client.campaigns.importVouchers('SDK Import', [{ code: 'SDK-CIMP-1' }, { code: 'SDK-CIMP-2' }])).async_action_id)
  const impCSV = require('path').join(csvDir, 'campaign.csv')
  require('fs').writeFileSync(impCSV, 'Code\nSDK-CIMP-CSV-1\n')
  const impCSVJob = await waitJob((await client.campaigns.importVouchersCSV(impCamp.id, impCSV)).async_action_id)
  const impCodes = (await client.vouchers.list({ campaign: 'SDK Import', limit: 10 })).vouchers.map(v => v.code).sort()
  assert(impJob.status === 'DONE' && impCSVJob.status === 'DONE' && impCodes.join() === 'SDK-CIMP-1,SDK-CIMP-2,SDK-CIMP-CSV-1',
    'campaigns.importVouchers and importVouchersCSV -> the codes in the campaign', { impJob, impCSVJob, impCodes })
  // A customer's activity through the non-deprecated list (GET /v1/customers/{id}/activity).
  const custActivity = await client.customers.listActivity('sdk-customer', { limit: 100 })
  assert(custActivity.object === 'list' && custActivity.data_ref === 'data' && typeof custActivity.has_more === 'boolean' &&
    custActivity.data.some(a => a.type === 'customer.publication.succeeded'), 'customers.listActivity', custActivity.data.map(a => a.type))
  // Validation rules named at creation, and the assignment lists (issue #32).
  const rule = await client.validationRules.create({ name: 'sdk min', rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] } } } })
  const ruled = await client.vouchers.create({ code: 'SDK-RULED', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, validation_rules: [rule.id] })
  assert(ruled.validation_rules_assignments.total === 1 && ruled.validation_rules_assignments.data[0].rule_id === rule.id,
    'vouchers.create assigns validation_rules', ruled.validation_rules_assignments)
  const allAssignments = await client.validationRules.listRulesAssignments({ rule: rule.id })
  const ruleAssignments = await client.validationRules.listAssignments(rule.id)
  assert(allAssignments.total === 1 && allAssignments.data[0].related_object_id === ruled.id && ruleAssignments.total === 1,
    'validationRules.listRulesAssignments / listAssignments', { allAssignments, ruleAssignments })
  // Products and SKUs (the catalogue; docs/products.md).
  const prod = await client.products.create({ source_id: 'sdk-shirt', name: 'SDK Shirt', price: 2500, attributes: ['color'], metadata: { line: 'sdk' } })
  assert(/^prod_[0-9a-f]{18}$/.test(prod.id) && prod.object === 'product' && prod.price === 2500 && prod.image_url === null &&
    prod.updated_at === null, 'products.create', prod)
  const prodAgain = await client.products.create({ source_id: 'sdk-shirt', price: 2700 })
  assert(prodAgain.id === prod.id && prodAgain.price === 2700 && prodAgain.name === 'SDK Shirt', 'products.create upserts by source_id', prodAgain)
  const sdkSku = await client.products.createSku('sdk-shirt', { source_id: 'sdk-shirt-red', sku: 'Red', price: 2600, currency: 'EUR', attributes: { color: 'red' } })
  assert(/^sku_[0-9a-f]{18}$/.test(sdkSku.id) && sdkSku.object === 'sku' && sdkSku.product_id === prod.id && sdkSku.attributes.color === 'red',
    'products.createSku', sdkSku)
  const prodGot = await client.products.get('sdk-shirt')
  assert(prodGot.id === prod.id && prodGot.skus.object === 'list' && prodGot.skus.total === 1 && prodGot.skus.data[0].id === sdkSku.id,
    'products.get by source_id, with its skus', prodGot)
  const prodUp = await client.products.update({ source_id: 'sdk-shirt', name: 'SDK Shirt 2' })
  assert(prodUp.id === prod.id && prodUp.name === 'SDK Shirt 2' && prodUp.price === 2700 && typeof prodUp.updated_at === 'string', 'products.update', prodUp)
  const skuGot = await client.products.getSku('sdk-shirt-red')
  assert(skuGot.id === sdkSku.id && skuGot.currency === 'EUR', 'products.getSku by source_id', skuGot)
  const skuUp = await client.products.updateSku('sdk-shirt', { id: sdkSku.id, price: 2400 })
  assert(skuUp.id === sdkSku.id && skuUp.price === 2400 && skuUp.sku === 'Red', 'products.updateSku', skuUp)
  const skuList = await client.products.listSkus(prod.id)
  assert(skuList.object === 'list' && skuList.data_ref === 'skus' && skuList.total === 1 && skuList.skus[0].id === sdkSku.id, 'products.listSkus', skuList)
  const prodList = await client.products.list({ limit: 5 })
  assert(prodList.data_ref === 'products' && prodList.total === 1 && prodList.products[0].skus.total === 1, 'products.list', prodList)
  const prodBulk = await waitJob((await client.products.bulkUpdate([{ source_id: 'sdk-shirt', price: 3000 }, { source_id: 'sdk-mug', name: 'Mug' }])).async_action_id)
  const prodMeta = await waitJob((await client.products.bulkUpdateMetadata({ source_ids: ['sdk-shirt', 'sdk-mug'], metadata: { via: 'bulk' } })).async_action_id)
  const shirt = await client.products.get('sdk-shirt')
  assert(prodBulk.type === 'PRODUCTS.BULK_UPDATE' && prodBulk.status === 'DONE' && prodMeta.type === 'PRODUCTS.METADATA_UPDATE' &&
    prodMeta.status === 'DONE' && shirt.price === 3000 && shirt.metadata.via === 'bulk' && shirt.metadata.line === 'sdk',
    'products.bulkUpdate and bulkUpdateMetadata -> async actions done, metadata merged', { prodBulk, prodMeta, shirt })
  await client.products.deleteSku('sdk-shirt', sdkSku.id)
  await expectError(() => client.products.getSku(sdkSku.id), e => e.code === 404 && e.resource_type === 'sku', 'products.deleteSku -> then 404')
  await client.products.delete('sdk-shirt', { force: true })
  await expectError(() => client.products.get('sdk-shirt'), e => e.code === 404 && e.resource_type === 'product' && e.resource_id === 'sdk-shirt',
    'products.delete -> then 404 echoing the source_id')
  // v1 rewards and their loyalty side (graph/reward; docs/loyalty.md "v1 rewards").
  const pointsCamp = await client.campaigns.create({ name: 'SDK Points', campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 500 } } })
  const couponCamp = await client.campaigns.create({ name: 'SDK Coupons', campaign_type: 'DISCOUNT_COUPONS', type: 'AUTO_UPDATE',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } } })
  const rew = await client.rewards.create({ name: 'SDK coupon', type: 'CAMPAIGN', parameters: { campaign: { id: couponCamp.id } } })
  assert(rew.id.startsWith('rew_') && rew.object === 'reward' && rew.type === 'CAMPAIGN' && rew.parameters.campaign.type === 'DISCOUNT_COUPONS',
    'rewards.create (CAMPAIGN)', rew)
  const mat = await client.rewards.create({ name: 'SDK mug', type: 'MATERIAL', stock: 2, parameters: { product: { id: 'sdk-mug' } } })
  assert(mat.type === 'MATERIAL' && mat.stock === 2 && mat.redeemed === 0, 'rewards.create (MATERIAL, stock)', mat)
  const matUp = await client.rewards.update({ id: mat.id, name: 'SDK big mug', stock: 3 })
  assert(matUp.id === mat.id && matUp.name === 'SDK big mug' && matUp.stock === 3 && typeof matUp.updated_at === 'string', 'rewards.update', matUp)
  const rewGot = await client.rewards.get(rew.id)
  const rewList = await client.rewards.list({ limit: 10 })
  assert(rewGot.id === rew.id && rewList.object === 'list' && rewList.total === 2 && rewList.data.length === 2, 'rewards.get / rewards.list', { rewGot, rewList })
  await expectError(() => client.rewards.create({ name: 'bad', type: 'MATERIAL', stock: -1, parameters: { product: { id: 'sdk-mug' } } }),
    e => e.code === 400 && e.key === 'invalid_payload', 'rewards.create with a negative stock -> 400')
  const asg = await client.rewards.createAssignment(rew.id, { campaign: pointsCamp.id, parameters: { loyalty: { points: 100 } } })
  assert(asg.id.startsWith('rewa_') && asg.reward_id === rew.id && asg.related_object_id === pointsCamp.id && asg.parameters.loyalty.points === 100,
    'rewards.createAssignment', asg)
  const asgUp = await client.rewards.updateAssignment(rew.id, { id: asg.id, parameters: { loyalty: { points: 120 } } })
  const asgGot = await client.rewards.getAssignment(rew.id, asg.id)
  const asgList = await client.rewards.listAssignments(rew.id)
  assert(asgUp.parameters.loyalty.points === 120 && asgGot.id === asg.id && asgList.total === 1, 'rewards.updateAssignment / getAssignment / listAssignments',
    { asgUp, asgGot, asgList })
  const [matAsg] = await client.loyalties.createRewardAssignments(pointsCamp.id, [{ reward: mat.id, parameters: { loyalty: { points: 200 } } }])
  assert(matAsg && matAsg.reward_id === mat.id, 'loyalties.createRewardAssignments', matAsg)
  const lrUp = await client.loyalties.updateRewardAssignment(pointsCamp.id, { id: matAsg.id, parameters: { loyalty: { points: 450 } } })
  const lrGot = await client.loyalties.getRewardAssignment(pointsCamp.id, matAsg.id)
  const lrList = await client.loyalties.listRewardAssignments(pointsCamp.id)
  const details = await client.loyalties.getRewardDetails(pointsCamp.id, matAsg.id)
  assert(lrUp.parameters.loyalty.points === 450 && lrGot.id === matAsg.id && lrList.total === 2 && details.id === mat.id,
    'loyalties.updateRewardAssignment / getRewardAssignment / listRewardAssignments / getRewardDetails', { lrUp, lrList, details })
  const card = (await client.distributions.publications.create({ campaign: { name: 'SDK Points' }, customer: { source_id: 'sdk-member' } })).voucher.code
  const redeemed = await client.loyalties.redeemReward(pointsCamp.id, card, { reward: { id: rew.id } })
  assert(redeemed.object === 'redemption' && redeemed.result === 'SUCCESS' && redeemed.amount === 120 && redeemed.loyalty_card.points === 120 &&
    redeemed.reward.id === rew.id && redeemed.reward.voucher.campaign_id === couponCamp.id, 'loyalties.redeemReward -> a coupon for 120 points', redeemed)
  const affordable = await client.loyalties.listMemberRewards(card, { affordable_only: true })
  assert(affordable.total === 1 && affordable.data[0].object === 'loyalty_reward' && affordable.data[0].reward.id === rew.id,
    'loyalties.listMemberRewards affordable_only (380 points: not the 450-point mug)', affordable)
  await expectError(() => client.loyalties.redeemReward(pointsCamp.id, card, { reward: { id: mat.id } }),
    e => e.code === 400 && e.key === 'loyalty_card_points_exceeded', 'loyalties.redeemReward without enough points -> 400')
  const cardAfter = await client.vouchers.get(card)
  assert(cardAfter.loyalty_card.balance === 380, 'the card paid once', cardAfter.loyalty_card)
  await client.loyalties.deleteRewardAssignment(pointsCamp.id, matAsg.id)
  await expectError(() => client.rewards.delete(rew.id), e => e.code === 400 && e.key === 'resource_in_use', 'rewards.delete of an assigned reward -> 400')
  await client.rewards.deleteAssignment(rew.id, asg.id)
  await client.rewards.delete(rew.id)
  await expectError(() => client.rewards.get(rew.id), e => e.code === 404 && e.resource_type === 'reward', 'rewards.delete -> then 404')
  // Promotions: tiers and stacks (docs/promotions.md).
  const promo = await client.promotions.create({ name: 'SDK Promo', campaign_type: 'PROMOTION', type: 'STATIC',
    promotion: { tiers: [{ name: 'SDK 10 off', banner: 'Ten off', action: { discount: { type: 'AMOUNT', amount_off: 1000 } } }] } })
  assert(promo.campaign_type === 'PROMOTION', 'promotions.create', promo)
  const tiersOf = await client.promotions.tiers.list(promo.id)
  assert(tiersOf.data_ref === 'tiers' && tiersOf.total === 1 && tiersOf.tiers[0].hierarchy === 1, 'promotions.tiers.list', tiersOf)
  const tier2 = await client.promotions.tiers.create(promo.id, { name: 'SDK 10%', action: { discount: { type: 'PERCENT', percent_off: 10 } } })
  assert(/^promo_/.test(tier2.id) && tier2.hierarchy === 2 && tier2.object === 'promotion_tier', 'promotions.tiers.create', tier2)
  const tierGot = await client.promotions.tiers.get(tier2.id)
  assert(tierGot.id === tier2.id && tierGot.summary.redemptions.total_redeemed === 0, 'promotions.tiers.get', tierGot)
  const tierUp = await client.promotions.tiers.update({ id: tier2.id, name: 'SDK 15%', action: { discount: { type: 'PERCENT', percent_off: 15 } } })
  assert(tierUp.name === 'SDK 15%' && tierUp.action.discount.percent_off === 15, 'promotions.tiers.update', tierUp)
  const allTiers = await client.promotions.tiers.listAll({ is_available: true, limit: 10 })
  assert(allTiers.total === 2 && allTiers.has_more === false, 'promotions.tiers.listAll', allTiers)
  const stack = await client.promotions.stack.createInCampaign(promo.id, { name: 'SDK stack', tiers: { ids: [tier2.id, tiersOf.tiers[0].id], hierarchy_mode: 'MANUAL' } })
  assert(/^stack_/.test(stack.id) && stack.tiers.ids.length === 2, 'promotions.stack.createInCampaign', stack)
  const stackUp = await client.promotions.stack.update(promo.id, stack.id, { name: 'SDK stack 2' })
  assert(stackUp.name === 'SDK stack 2', 'promotions.stack.update', stackUp)
  const stackGot = await client.promotions.stack.get(promo.id, stack.id)
  const stacksIn = await client.promotions.stack.listInCampaign(promo.id)
  const stacksAll = await client.promotions.stack.list({ limit: 10 })
  assert(stackGot.id === stack.id && stacksIn.total === 1 && stacksAll.total === 1, 'promotions.stack.get / listInCampaign / list', { stackGot, stacksIn, stacksAll })
  const stackVal = await client.validations.validateStackable({ redeemables: [{ object: 'promotion_stack', id: stack.id }], order: { amount: 10000 } })
  assert(stackVal.valid === true && stackVal.order.total_amount === 7500, 'validations.validateStackable of a promotion_stack -> 15% then 1000 off', stackVal)
  const promoVal = await client.promotions.validate({ order: { amount: 10000 } })
  assert(promoVal.valid === true && promoVal.promotions.length === 2, 'promotions.validate', promoVal)
  // Qualifications (docs/qualifications.md): both tiers fit the order, each computed alone.
  const qual = await client.qualifications.checkEligibility({ customer: { source_id: 'sdk-promo' }, order: { amount: 10000 },
    scenario: 'ALL', options: { limit: 50, expand: ['redeemable'], sorting_rule: 'BEST_DEAL' } })
  // Scenario ALL also offers the project's generic codes that fit the order, and the code campaigns of which
  // the customer holds no code (object campaign, id camp_…, name with expand redeemable, no campaign_id):
  // SDK Summer (15% off), SDK Redeem (500 off) and the SDK Gift card's credits; best deal first.
  const qualData = qual.redeemables.data
  const qualTiers = qualData.filter(r => r.object === 'promotion_tier')
  const qualCamps = qualData.filter(r => r.object === 'campaign')
  const qualCamp = id => qualCamps.find(r => r.id === id)
  assert(qual.redeemables.object === 'list' && qual.redeemables.total === qualData.length && qual.redeemables.has_more === false &&
    qualTiers.length === 2 && qualTiers[0].id === tier2.id && qualTiers[0].order.total_amount === 8500 &&
    qualTiers[1].order.total_amount === 9000 && qualTiers[0].campaign_name === 'SDK Promo' &&
    qualData.some(r => r.object === 'voucher') &&
    qualCamp(camp.id) && qualCamp(camp.id).name === 'SDK Summer' && qualCamp(camp.id).order.total_amount === 8500 &&
    qualCamp(redeemCamp.id) && qualCamp(redeemCamp.id).order.total_amount === 9500 &&
    qualCamp(gift.id) && qualCamp(gift.id).result.gift &&
    qualCamps.every(r => r.id.startsWith('camp_') && r.campaign_id === undefined && r.campaign_name === undefined) &&
    qualData.every((r, i, a) => i === 0 || a[i - 1].order.total_amount <= r.order.total_amount),
    'qualifications.checkEligibility -> both tiers, the generic codes and the code campaigns, best deal first', qual)
  await expectError(() => client.qualifications.checkEligibility({ options: { limit: 51 } }),
    e => e.code === 400 && e.key === 'invalid_payload', 'qualifications.checkEligibility with limit 51 -> 400')
  // Legacy qualifications (docs/qualifications.md "Legacy endpoints"): a fresh generic code and code campaign.
  await client.vouchers.create({ code: 'SDK-QUAL', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } })
  const vq = await client.vouchers.qualifications.examine({ customer: { source_id: 'sdk-promo' }, order: { amount: 10000 } },
    { order: '-created_at', limit: 1 })
  assert(vq.object === 'list' && vq.total === 1 && vq.data[0].code === 'SDK-QUAL' && vq.id.startsWith('qfl_'),
    'vouchers.qualifications.examine -> the newest generic code', vq)
  await client.campaigns.create({ name: 'SDK Qual', campaign_type: 'DISCOUNT_COUPONS', type: 'STATIC',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })
  await client.campaigns.addVoucher('SDK Qual', { code: 'SDK-QUAL-1' })
  const cq = await client.campaigns.qualifications.examine({ customer: { source_id: 'sdk-promo' }, order: { amount: 10000 } },
    { audienceRulesOnly: true, order: '-created_at', limit: 1 })
  assert(cq.object === 'list' && cq.total === 1 && cq.data[0].name === 'SDK Qual' && cq.data[0].object === 'campaign',
    'campaigns.qualifications.examine -> the newest code campaign', cq)
  await expectError(() => client.vouchers.qualifications.examine({}, { limit: 51 }),
    e => e.code === 400 && e.key === 'invalid_query_params', 'vouchers.qualifications.examine with limit 51 -> 400')
  const tierRed = await client.promotions.tiers.redeem(tiersOf.tiers[0].id, { order: { amount: 5000 }, customer: { source_id: 'sdk-promo' } })
  assert(tierRed.result === 'SUCCESS' && tierRed.promotion_tier.id === tiersOf.tiers[0].id && tierRed.order.total_amount === 4000, 'promotions.tiers.redeem', tierRed)
  await client.promotions.stack.delete(promo.id, stack.id)
  await expectError(() => client.promotions.stack.get(promo.id, stack.id), e => e.code === 404 && e.resource_type === 'promotion_stack', 'promotions.stack.delete -> then 404')
  await client.promotions.tiers.delete(tier2.id)
  await expectError(() => client.promotions.tiers.get(tier2.id), e => e.code === 404 && e.resource_type === 'promotion_tier', 'promotions.tiers.delete -> then 404')
  // v1 loyalty programs and members (docs/loyalty.md, "The v1 loyalty API").
  const loy = await client.loyalties.create({ name: 'SDK Loyalty', campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 100 }, code_config: { pattern: 'SDKL-######' } } })
  assert(loy.id.startsWith('camp_') && loy.campaign_type === 'LOYALTY_PROGRAM' && loy.join_once === true, 'loyalties.create', loy)
  assert((await client.loyalties.get(loy.id)).name === 'SDK Loyalty', 'loyalties.get')
  const loyUp = await client.loyalties.update({ id: loy.id, description: 'sdk program' })
  assert(loyUp.description === 'sdk program', 'loyalties.update', loyUp)
  const loyList = await client.loyalties.list({ limit: 10 })
  assert(loyList.data_ref === 'campaigns' && loyList.campaigns.some(c => c.id === loy.id) && loyList.campaigns.every(c => c.campaign_type === 'LOYALTY_PROGRAM'),
    'loyalties.list -> programs only', loyList)
  const member = await client.loyalties.createMember(loy.id, { customer: { source_id: 'sdk-member', name: 'SDK Member' } })
  assert(/^SDKL-/.test(member.code) && member.loyalty_card.balance === 100, 'loyalties.createMember', member)
  const gotMember = await client.loyalties.getMember(null, member.code)
  assert(gotMember.id === member.id && (await client.loyalties.getMember(loy.id, member.code)).id === member.id, 'loyalties.getMember with and without the program')
  assert((await client.loyalties.listMembers(loy.id)).vouchers.length === 1, 'loyalties.listMembers')
  const added = await client.loyalties.addOrRemoveCardBalance(member.code, { points: 88 })
  assert(added.points === 88 && added.total === 188 && added.balance === 188 && added.object === 'balance', 'loyalties.addOrRemoveCardBalance', added)
  await expectError(() => client.loyalties.addOrRemoveCardBalance(member.code, { points: -1000 }, loy.id),
    e => e.code === 400 && e.key === 'invalid_amount', 'loyalties.addOrRemoveCardBalance more than the balance -> 400')
  const other = await client.loyalties.createMember(loy.id, { customer: { source_id: 'sdk-member-2' } })
  const moved = await client.loyalties.transferPoints(loy.id, other.code, [{ code: member.code, points: 8, source_id: 'sdk-transfer' }])
  assert(moved.loyalty_card.balance === 108, 'loyalties.transferPoints', moved)
  const cardTx = await client.loyalties.listCardTransactions(member.code, null)
  assert(cardTx.data.length === 2 && cardTx.data[0].type === 'POINTS_TRANSFER_OUT' && cardTx.has_more === false, 'loyalties.listCardTransactions', cardTx)
  const cardExport = await client.loyalties.exportCardTransactions(member.code, loy.id, {})
  assert(cardExport.id.startsWith('exp_') && cardExport.exported_object === 'voucher_transactions', 'loyalties.exportCardTransactions', cardExport)
  const activity = await client.loyalties.listMemberActivity(loy.id, member.code, { limit: 5 })
  assert(activity.data_ref === 'data' && activity.data.length > 0, 'loyalties.listMemberActivity', activity)
  assert((await client.loyalties.getMemberActivities(null, member.code)).data_ref === 'activities', 'loyalties.getMemberActivities')
  const expiring = await client.loyalties.getPointsExpiration(loy.id, member.code, { limit: 10, page: 1 })
  assert(expiring.total === 1 && expiring.data[0].bucket.total_points === 80 && expiring.data[0].expires_at === undefined &&
    expiring.data[0].id.startsWith('lopb_'), 'loyalties.getPointsExpiration -> the 88 added, less the 8 transferred, never expiring', expiring)
  const ern = await client.loyalties.createEarningRule(loy.id, [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 5 } }])
  assert(ern.length === 1 && ern[0].id.startsWith('ern_') && ern[0].object === 'earning_rule', 'loyalties.createEarningRule', ern)
  assert((await client.loyalties.getEarningRule(loy.id, ern[0].id)).event === 'order.paid', 'loyalties.getEarningRule')
  const ernUp = await client.loyalties.updateEarningRule(loy.id, { id: ern[0].id, loyalty: { type: 'FIXED', points: 6 } })
  assert(ernUp.loyalty.points === 6, 'loyalties.updateEarningRule', ernUp)
  assert((await client.loyalties.disableEarningRule(loy.id, ern[0].id)).active === false &&
    (await client.loyalties.enableEarningRule(loy.id, ern[0].id)).active === true, 'loyalties.disableEarningRule / enableEarningRule')
  assert((await client.loyalties.listEarningRules(loy.id)).total === 1, 'loyalties.listEarningRules')
  const tiers = await client.loyalties.createTiers(loy.id, [{ name: 'SDK Bronze', points: { from: 0, to: 999 },
    earning_rules: { [ern[0].id]: { type: 'MULTIPLY', multiplier: 2 } } }, { name: 'SDK Gold', points: { from: 1000 } }])
  assert(tiers.length === 2 && tiers[0].id.startsWith('ltr_') && tiers[0].object === 'loyalty_tier', 'loyalties.createTiers', tiers)
  assert((await client.loyalties.listTiers(loy.id)).total === 2 && (await client.loyalties.getTier(loy.id, tiers[1].id)).name === 'SDK Gold',
    'loyalties.listTiers / getTier')
  const tierRules = await client.loyalties.listLoyaltyTierEarningRules(loy.id, tiers[0].id)
  assert(tierRules.data[0].loyalty.points === 12, 'loyalties.listLoyaltyTierEarningRules (mapping applied)', tierRules)
  const memberTiers = await client.loyalties.listMemberLoyaltyTiers(member.code)
  assert(memberTiers.data.length === 1 && memberTiers.data[0].id === tiers[0].id, 'loyalties.listMemberLoyaltyTiers', memberTiers)
  const viaAddPoints = await client.loyalties.addPoints(loy.id, member.code, { points: 12 })
  assert(viaAddPoints.points === 12 && viaAddPoints.balance === 192 && viaAddPoints.object === 'balance', 'loyalties.addPoints', viaAddPoints)
  const tierRewards = await client.loyalties.listLoyaltyTierRewards(loy.id, tiers[0].id)
  assert(tierRewards.object === 'list' && tierRewards.data_ref === 'data' && Array.isArray(tierRewards.data) && tierRewards.total === tierRewards.data.length,
    'loyalties.listLoyaltyTierRewards', tierRewards)
  await client.loyalties.deleteEarningRule(loy.id, ern[0].id)
  assert((await client.loyalties.listEarningRules(loy.id)).total === 0, 'loyalties.deleteEarningRule')
  const loyDel = await client.loyalties.delete(loy.id, { force: true })
  assert(loyDel.async_action_id && loyDel.async_action_id.startsWith('aa_'), 'loyalties.delete -> async action', loyDel)
  // Product collections (docs/products.md).
  await client.products.create({ source_id: 'sdk-pen', name: 'Pen', price: 300 })
  const pcStatic = await client.productCollections.create({ type: 'STATIC', name: 'SDK picks', products: [{ id: 'sdk-pen', object: 'product' }] })
  assert(pcStatic.id.startsWith('pc_') && pcStatic.type === 'STATIC' && pcStatic.products.length === 1, 'productCollections.create (STATIC)', pcStatic)
  const pcAuto = await client.productCollections.create({ type: 'AUTO_UPDATE', name: 'SDK cheap',
    filter: { junction: 'and', price: { conditions: { $less_than: [1000] } } } })
  const pcItems = await client.productCollections.listProducts(pcAuto.id, { limit: 10 })
  assert(pcItems.total >= 1 && pcItems.data.some(p => p.name === 'Pen'), 'productCollections.listProducts (AUTO_UPDATE)', pcItems)
  const pcList = await client.productCollections.list({ limit: 10 })
  const pcGot = await client.productCollections.get(pcStatic.id)
  assert(pcList.total === 2 && pcGot.id === pcStatic.id, 'productCollections.list and get', { pcList, pcGot })
  await client.productCollections.delete(pcStatic.id)
  await expectError(() => client.productCollections.get(pcStatic.id), e => e.code === 404 && e.resource_type === 'products_collection',
    'productCollections.delete -> then 404')
  // Orders (docs/orders.md).
  const ord = await client.orders.create({ source_id: 'sdk-resource-order-1', customer: { source_id: 'sdk-buyer' },
    items: [{ product_id: 'sdk-pen', quantity: 2 }, { source_id: 'x', related_object: 'product', quantity: '1', price: 1000 }] })
  assert(ord.id.startsWith('ord_') && ord.status === 'CREATED' && ord.amount === 1600 && ord.items[0].price === 300,
    'orders.create (catalogue price, amounts)', ord)
  const ordUp = await client.orders.update({ id: ord.id, status: 'PAID' })
  const ordGot = await client.orders.get('sdk-resource-order-1')
  assert(ordUp.status === 'PAID' && ordGot.id === ord.id && ordGot.status === 'PAID', 'orders.update and get by source_id', { ordUp, ordGot })
  const ordList = await client.orders.list({ limit: 5 })
  // Redemptions above stored orders too: the newest is this one.
  assert(ordList.data_ref === 'orders' && ordList.total >= 1 && ordList.orders[0].id === ord.id, 'orders.list', ordList)
  const ordImport = await waitJob((await client.orders.import([{ source_id: 'sdk-old-1', amount: 500 }])).async_action_id)
  assert((await client.orders.get('sdk-old-1')).amount === 500, 'orders.import -> async action done', ordImport)
  await expectError(() => client.orders.create({ items: [{ quantity: 0, price: 1 }] }), e => e.code === 400 && e.key === 'invalid_payload',
    'orders.create with quantity 0 -> 400')
  // SKUs imported from a CSV file (async action).
  await client.products.create({ source_id: 'sdk-skus-csv', name: 'SKU host' })
  const skusCSV = require('path').join(csvDir, 'skus.csv')
  require('fs').writeFileSync(skusCSV, 'product_id,sku,source_id,price\nsdk-skus-csv,Red,sdk-sku-red,150\n')
  const skusJob = await waitJob((await client.products.importSkusCSV(skusCSV)).async_action_id)
  const importedSku = await client.products.getSku('sdk-sku-red')
  assert(skusJob.status === 'DONE' && importedSku.sku === 'Red' && importedSku.price === 150, 'products.importSkusCSV', { skusJob, importedSku })
  // The customer's wallet.
  const wallet = await client.customers.listRedeemables('sdk-customer', { limit: 10 })
  assert(wallet.object === 'list' && Array.isArray(wallet.data) && typeof wallet.has_more === 'boolean', 'customers.listRedeemables', wallet)
  // Rate limits: the SDK reads X-Rate-Limit-Limit / X-Rate-Limit-Remaining of the last answer (default 2000 a minute).
  const limits = { limit: client.apiLimitsHandler.getRateLimit(), remaining: client.apiLimitsHandler.getRateLimitRemaining() }
  assert(client.apiLimitsHandler.areLimitsAvailable() && Number.isInteger(limits.limit) && limits.limit > 0 &&
    Number.isInteger(limits.remaining) && limits.remaining >= 0 && limits.remaining < limits.limit,
    'apiLimitsHandler.getRateLimit / getRateLimitRemaining -> numbers from the headers', limits)
})().catch(e => {
  console.error('FAIL: unexpected', e instanceof Error && e.key ? { code: e.code, key: e.key, message: e.message, details: e.details } : e)
  process.exitCode = 1
})
