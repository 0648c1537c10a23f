/** A worker thread of encryptCardBatch: encrypts its share of the cards. */
import { parentPort, workerData } from 'node:worker_threads'
import type { CardInput } from 'card-jwe'
import { encryptInThisThread } from '../encrypt-card-batch.js'

const { certificatePem, cards } = workerData as { certificatePem: string; cards: CardInput[] }
parentPort!.postMessage(encryptInThisThread(cards, certificatePem))
