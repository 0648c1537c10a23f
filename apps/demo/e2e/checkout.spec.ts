import { answerChallenge, EXPECTED_CARD_JWE_HEADER, expect, findTestCard, test } from './shop.js'

test('a challenged card pays, and the page sends it only inside a fresh JWE', async ({ page, shopUrl, cardCapture }) => {
  const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
  await page.goto(shopUrl)
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(page.getByLabel('Card number')).toBeVisible()
  await page.getByLabel('Card number').pressSequentially(card.number)
  await page.getByLabel('Expiry date (MM/YY)').pressSequentially(card.expiryMonth + card.expiryYear.slice(2))
  await page
    .locator('#card-form')
    .getByLabel(/Security code/)
    .fill(card.securityCode)
  await page.getByRole('button', { name: /^Pay/ }).click()

  const sent = await cardCapture.nextCard('**/api/payments', { typed: card })
  expect(sent.protectedHeader).toEqual(EXPECTED_CARD_JWE_HEADER)
  await answerChallenge(page, 'approve')
  await expect(page.locator('#result-code')).toHaveText('Authorised')
})
