import type { CheckoutMessages } from '../messages.js'

/** Czech (`cs`): the flow's words for `@card-jwe/checkout/locales/cs`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Platba se zpracovává…',
  fix: 'Opravte označená pole.',
  challenge: 'Vaše banka žádá o potvrzení platby.',
  redirecting: 'Přesměrování do vaší banky…',
  paid: 'Platba byla autorizována. Děkujeme!',
  refused: 'Vaše karta byla zamítnuta. Nic nebylo strženo. Zkuste jinou kartu.',
  notFinished: 'Platba nebyla dokončena. Nic nebylo strženo. Můžete to zkusit znovu.',
  pending: 'Platba se potvrzuje. Za chvíli stránku načtěte znovu; nikdy nezaplatíte dvakrát.',
  unavailable: 'Platba teď není možná. Zkuste to za chvíli znovu; nikdy nezaplatíte dvakrát.',
  offline: 'Obchod není dostupný. Zkontrolujte připojení a zkuste to znovu.',
  card: 'Zkontrolujte údaje karty a zkuste to znovu.',
  order: 'Vaše objednávka se změnila. Načtěte stránku znovu a zkontrolujte ji.',
  ended: 'Tato platba už skončila. Načtěte stránku znovu a uvidíte její výsledek.',
  failed: 'Platbu se nepodařilo provést. Nic nebylo strženo. Zkuste to znovu.',
})
