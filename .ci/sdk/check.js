// Drives the official Node SDK (@voucherify/sdk, pinned in package.json)
// against a running promoengine: API_URL, APP_ID and APP_TOKEN name it.
// Run by .ci/sdk-check.
const { VoucherifyServerSide } = require('@voucherify/sdk')
const client = VoucherifyServerSide({ applicationId: process.env.APP_ID, secretKey: process.env.APP_TOKEN, apiUrl: process.env.API_URL })
const assert = (cond, msg) => { if (!cond) { console.error('FAIL:', msg); process.exitCode = 1 } else console.log('ok  ', msg) }
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
})().catch(e => { console.error('FAIL: unexpected', e); process.exitCode = 1 })
