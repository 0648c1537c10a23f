import { MESSAGES_EN } from '../messages-en.js'
import type { CardFieldMessages } from '../messages.js'

/** English (`en`), the root entry's default, also as an entry of its own like every locale. */
export const messages: CardFieldMessages = MESSAGES_EN
