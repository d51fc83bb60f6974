// Drives the official browser client of @voucherify/sdk (VoucherifyClientSide,
// pinned in package.json) against a running promoengine. API_URL names it;
// MGMT_ID and MGMT_TOKEN are a management key, with which this script
// creates a project, sets its client-side settings and reads its keys.
// Run by .ci/sdk-check.
const { VoucherifyServerSide, VoucherifyClientSide } = require('@voucherify/sdk')
const api = process.env.API_URL
const shop = 'https://shop.example.com'
const assert = (cond, msg, ...got) => {
  if (!cond) { console.error('FAIL:', msg, ...got.map(g => JSON.stringify(g))); process.exitCode = 1 } else console.log('ok  ', msg)
}
const expectError = async (fn, pred, msg) => {
  let res
  try { res = await fn() } catch (e) {
    return assert(pred(e), msg, { code: e.code, key: e.key, message: e.message, details: e.details })
  }
  assert(false, msg + ' (no error was thrown)', res)
}
const management = async (method, path, body) => {
  const res = await fetch(api + '/management/v1/projects' + path, { method, body: body && JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', 'X-Management-Id': process.env.MGMT_ID, 'X-Management-Token': process.env.MGMT_TOKEN } })
  const json = await res.json()
  if (!res.ok) throw new Error(`management ${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
  return json
}
;(async () => {
  const project = await management('POST', '', { name: 'SDK web shop', client_trusted_domains: [shop] })
  assert(project.client_side_key && project.client_side_key.app_token, 'management: POST /management/v1/projects -> client_side_key', project)
  const server = VoucherifyServerSide({ applicationId: project.server_side_key.app_id, secretKey: project.server_side_key.app_token, apiUrl: api })
  const webPromo = await server.campaigns.create({ name: 'Web Promo', campaign_type: 'DISCOUNT_COUPONS', type: 'STATIC',
    voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } } })
  for (const code of ['WEB-1', 'WEB-2', 'WEB-3']) await server.campaigns.addVoucher('Web Promo', { code })
  await fetch(api + '/v1/metadata-schemas', { method: 'POST', body: JSON.stringify({ related_object: 'event', name: 'page-view', properties: {} }),
    headers: { 'Content-Type': 'application/json', 'X-App-Id': project.server_side_key.app_id, 'X-App-Token': project.server_side_key.app_token } })

  const client = VoucherifyClientSide({ clientApplicationId: project.client_side_key.app_id, clientSecretKey: project.client_side_key.app_token,
    apiUrl: api, origin: shop, trackingId: 'web-visitor' })
  const byString = await client.validate('WEB-1')
  assert(byString.valid === true && byString.code === 'WEB-1', 'client.validate(code) -> valid', byString)
  const full = await client.validate({ code: 'WEB-1', amount: 2000, items: [{ product_id: 'p1', quantity: 2, price: 1000 }],
    customer: { source_id: 'web-visitor' } })
  assert(full.valid === true && full.order && full.order.total_discount_amount === 500 && full.tracking_id === 'web-visitor',
    'client.validate({code, amount, items, customer}) -> discount 500, tracking_id', full)
  const stacked = await client.validateStackable({ redeemables: [{ object: 'voucher', id: 'WEB-2' }], order: { amount: 3000 } })
  assert(stacked.valid === true && stacked.order.total_amount === 2500, 'client.validateStackable -> total_amount 2500', stacked)

  // Writes are off until the project switches them on.
  await expectError(() => client.redeem('WEB-1', { order: { amount: 2000 } }),
    e => e.code === 403 && /client_redeem_enabled/.test(e.details), 'client.redeem with redemption disabled -> 403 naming the setting')
  await management('PUT', '/' + project.id, { client_redeem_enabled: true, client_publish_enabled: true,
    client_list_vouchers_enabled: true, client_create_customer_enabled: true })

  const redeemed = await client.redeem('WEB-1', { order: { amount: 2000 } })
  assert(redeemed.result === 'SUCCESS' && redeemed.channel.channel_type === 'CLIENT_API' && redeemed.order.total_amount === 1500,
    'client.redeem -> SUCCESS through CLIENT_API, total 1500', redeemed)
  const redeemedStacked = await client.redeemStackable({ redeemables: [{ object: 'voucher', id: 'WEB-2' }], order: { amount: 1000 },
    customer: { source_id: 'web-visitor' } })
  assert(redeemedStacked.redemptions && redeemedStacked.redemptions.length === 1 && redeemedStacked.order.total_amount === 500,
    'client.redeemStackable -> one redemption, total 500', redeemedStacked)
  const published = await client.publish('Web Promo', { customer: { source_id: 'web-visitor' } })
  assert(published.object === 'publication' && published.voucher && /^WEB-/.test(published.voucher.code) && published.customer.source_id === 'web-visitor', 'client.publish -> a Web Promo code for the visitor', published)
  const tracked = await client.track('page-view', { source_id: 'web-visitor' })
  assert(tracked.object === 'event' && tracked.type === 'page-view', 'client.track -> event', tracked)
  const listed = await client.listVouchers({ campaign: 'Web Promo', limit: 2 })
  assert(listed.object === 'list' && listed.total === 3 && listed.vouchers.length === 2, 'client.listVouchers -> 3 in all, 2 on the page', listed)
  const created = await client.createCustomer({ source_id: 'web-new', email: 'new@example.com' })
  assert(created.id && created.id.startsWith('cust_') && created.email === 'new@example.com', 'client.createCustomer -> customer', created)

  const consent = await fetch(api + '/graphql', { method: 'POST',
    body: JSON.stringify({ query: 'mutation { createConsent(input: {name: "Web newsletter"}) { id } }' }),
    headers: { 'Content-Type': 'application/json', 'X-App-Id': project.server_side_key.app_id, 'X-App-Token': project.server_side_key.app_token } })
    .then(r => r.json()).then(j => j.data.createConsent.id)
  const consents = await client.listConsents()
  assert(consents.consents.total === 1 && consents.consents.data[0].id === consent && consents.groups.total === 0,
    'client.listConsents -> the project\'s consent', consents)
  const updated = await client.updateConsents('web-new', { [consent]: true })
  assert(updated === undefined || updated === '', 'client.updateConsents -> undefined', updated)
  await expectError(() => client.updateConsents('web-new', { [consent]: 'yes' }), e => e.code === 400,
    'client.updateConsents with a non-boolean -> 400')

  await server.promotions.create({ name: 'Web Cart', campaign_type: 'PROMOTION', type: 'STATIC',
    promotion: { tiers: [{ name: 'Web 3 off', action: { discount: { type: 'AMOUNT', amount_off: 300 } } }] } })
  // web-new holds no Web Promo code: the campaign is offered too (newest first: the tier, then the campaign).
  const qualified = await client.qualifications({ customer: { source_id: 'web-new' }, order: { amount: 3000 } })
  const [qTier, qCamp] = qualified.redeemables.data
  assert(qualified.redeemables.total === 2 && qTier.object === 'promotion_tier' && qTier.order.total_amount === 2700 &&
    qCamp.object === 'campaign' && qCamp.id === webPromo.id && qCamp.order.total_amount === 2500,
    'client.qualifications -> the cart promotion and the Web Promo campaign', qualified)

  const foreign = VoucherifyClientSide({ clientApplicationId: project.client_side_key.app_id, clientSecretKey: project.client_side_key.app_token,
    apiUrl: api, origin: 'https://evil.example.net' })
  await expectError(() => foreign.validate('WEB-1'), e => e.code === 403 && e.key === 'forbidden',
    'client from an untrusted origin -> 403')
  await expectError(() => foreign.qualifications({ order: { amount: 3000 } }), e => e.code === 403,
    'client.qualifications from an untrusted origin -> 403')
  const wrong = VoucherifyClientSide({ clientApplicationId: project.client_side_key.app_id, clientSecretKey: 'wrong', apiUrl: api, origin: shop })
  await expectError(() => wrong.validate('WEB-1'), e => e.code === 401, 'client with a wrong token -> 401')
})().catch(e => {
  console.error('FAIL: unexpected', e instanceof Error && e.key ? { code: e.code, key: e.key, message: e.message, details: e.details } : e)
  process.exitCode = 1
})
