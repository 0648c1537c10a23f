/**
 * The processor's public test cards, one or more per brand, as its test-card documentation lists
 * them, plus two decline cards that are this toolkit's sandbox convention (marked `source`).
 * In test mode any future expiry and any code of the right length works (spec: "Front-end
 * contract" 8), so the expiry is not a constant: a fixed date (the documented 03/2030) would stop
 * working on its own. Numbers are stored without separators; a test checks every one against the
 * brand table and the Luhn rule.
 */
import type { CardBrandType } from 'card-jwe'

/** What the test platform does with the card: pay straight away, or ask for 3-D Secure 2 first. */
export type ThreeDSecureFlow = 'none' | 'frictionless' | 'challenge'

/** One card of the processor's test catalogue, with what the test platform does with it. */
export interface TestCard {
  /** The brand, as card-jwe's table names it. */
  readonly brand: CardBrandType
  /** Digits only. */
  readonly number: string
  /** "03", see {@link testCardExpiry}. */
  readonly expiryMonth: string
  /** Four years ahead of the clock, see {@link testCardExpiry}. */
  readonly expiryYear: string
  /**
   * What the shopper types in the code field: `''` for a brand without a code (Bancontact), which
   * card-jwe's `CardInput` reads as none, so a card types and encrypts as it is.
   */
  readonly securityCode: string
  /** Whether 3-D Secure 2 applies, and how. */
  readonly threeDSecure: ThreeDSecureFlow
  /** `refused` cards are declined after any 3-D Secure step, with `refusalReason`. */
  readonly outcome: 'authorised' | 'refused'
  /** The refusal reason the platform gives for a `refused` card, or for one refused without the shopper. */
  readonly refusalReason?: string
  /**
   * Saved and charged without the shopper (`Subscription`, `UnscheduledCardOnFile`): `refused` for a
   * card the issuer declines on file though it pays with the shopper present. Default: as `outcome`.
   */
  readonly outcomeWithoutShopper?: 'authorised' | 'refused'
  /** A short description for test names: "Visa, challenge". */
  readonly label: string
  /** Where the card's behaviour is defined. */
  readonly source: 'processor' | 'sandbox'
}

/** A test card's expiry. */
export interface TestCardExpiry {
  /** Two digits. */
  readonly month: string
  /** Four digits. */
  readonly year: string
}

/** How many years after the clock's year the test expiry lies. */
const TEST_EXPIRY_YEARS_AHEAD = 4

/**
 * The expiry for test cards at `now`: March, four years after `now`'s UTC year. That is always
 * more than three years ahead (never expired, well inside card-jwe's 20-year limit), and in 2026
 * it is the processor's documented pair 03/2030. A test that fixes its clock passes that clock.
 */
export function testCardExpiry(now: Date = new Date()): TestCardExpiry {
  return Object.freeze({ month: '03', year: String(now.getUTCFullYear() + TEST_EXPIRY_YEARS_AHEAD) })
}

/** The expiry the catalogue's cards carry: the one for the moment this module was loaded. */
export const TEST_EXPIRY = testCardExpiry()
/** The documented test codes: four digits for American Express, none (`''`) for Bancontact, else three. */
function codeFor(brand: CardBrandType): string {
  if (brand === 'bancontact') return ''
  return brand === 'american-express' ? '7373' : '737'
}

function card(brand: CardBrandType, number: string, label: string, extra: Partial<TestCard> = {}): TestCard {
  return Object.freeze({
    brand,
    number,
    expiryMonth: TEST_EXPIRY.month,
    expiryYear: TEST_EXPIRY.year,
    securityCode: codeFor(brand),
    threeDSecure: 'none',
    outcome: 'authorised',
    label,
    source: 'processor',
    ...extra,
  } satisfies TestCard)
}

/** The catalogue: the processor's documented test cards and the sandbox's own, frozen. */
export const TEST_CARDS: readonly TestCard[] = Object.freeze([
  card('visa', '4111111145551142', 'Visa classic'),
  card('visa', '4988438843884305', 'Visa consumer'),
  card('visa', '4166676667666746', 'Visa debit'),
  card('visa', '4646464646464644', 'Visa corporate'),
  card('visa', '4212345678910006', 'Visa 3-D Secure 2, frictionless', { threeDSecure: 'frictionless' }),
  card('visa', '4917610000000000', 'Visa 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('mastercard', '5555341244441115', 'Mastercard credit'),
  card('mastercard', '5577000055770004', 'Mastercard debit'),
  card('mastercard', '2222400070000005', 'Mastercard 2-series'),
  card('mastercard', '5454545454545454', 'Mastercard 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('american-express', '370000000000002', 'American Express'),
  card('american-express', '370000000100018', 'American Express corporate'),
  card('american-express', '371449635398431', 'American Express 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('discover', '6011601160116611', 'Discover'),
  card('discover', '6445644564456445', 'Discover 644'),
  card('discover', '6011111111111117', 'Discover 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('diners-club', '36006666333344', 'Diners Club'),
  card('diners-club', '36070500001020', 'Diners Club international'),
  card('diners-club', '30569309025904', 'Diners Club 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('jcb', '3569990010095841', 'JCB'),
  card('jcb', '3566111111111113', 'JCB 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('unionpay', '6250946000000016', 'UnionPay credit'),
  card('unionpay', '6243030000000001', 'UnionPay debit'),
  card('maestro', '5000550000000029', 'Maestro'),
  // Maestro and Bancontact payments are always authenticated by the schemes' rules.
  card('maestro', '6771798021000008', 'Maestro 3-D Secure 2, challenge', { threeDSecure: 'challenge' }),
  card('bancontact', '6703444444444449', 'Bancontact (no security code)', { threeDSecure: 'challenge' }),
  card('visa', '4000000000000002', 'Visa refused', { outcome: 'refused', refusalReason: 'Refused', source: 'sandbox' }),
  card('mastercard', '5105105105105100', 'Mastercard refused, not enough balance', {
    outcome: 'refused',
    refusalReason: 'Not enough balance',
    source: 'sandbox',
  }),
  card('visa', '4035501000000008', 'Visa refused on file (charges without the shopper)', {
    outcomeWithoutShopper: 'refused',
    refusalReason: 'Transaction Not Permitted',
    source: 'sandbox',
  }),
])

/** Options of {@link findTestCard}. */
export interface FindTestCardOptions {
  /** The clock the card is used at: its expiry is `testCardExpiry(now())`. Default: the catalogue's. */
  readonly now?: () => Date
}

/** The first card matching the filter, for tests that need "a Visa with a challenge". */
export function findTestCard(
  filter: Partial<Pick<TestCard, 'brand' | 'threeDSecure' | 'outcome' | 'outcomeWithoutShopper'>>,
  options: FindTestCardOptions = {},
): TestCard {
  const found = TEST_CARDS.find((c) => Object.entries(filter).every(([k, v]) => c[k as keyof TestCard] === v))
  if (!found) throw new Error(`no test card matches ${JSON.stringify(filter)}`)
  if (!options.now) return found
  const expiry = testCardExpiry(options.now())
  return Object.freeze({ ...found, expiryMonth: expiry.month, expiryYear: expiry.year })
}
