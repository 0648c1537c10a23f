import { describe, expect, it } from 'vitest'
import {
  ATTEMPT_STATES,
  FAILED_STATES,
  PAID_STATES,
  stateOfPaymentStatus,
  stateOfResultCode,
  transition,
  type AttemptState,
} from '../src/index.js'

describe('the transition table', () => {
  it('a payment being confirmed after its step ends only as the feed says: paid or refused, never a step again', () => {
    for (const to of ['authorised', 'refused', 'error'] as const) expect(transition('confirming', to)).toBe('move')
    for (const back of ['created', 'pending', 'action_required'] as const) expect(transition('confirming', back)).toBe('ignore')
  })

  it('a late failure never overwrites a success', () => {
    for (const paid of PAID_STATES) for (const failed of FAILED_STATES) expect(transition(paid, failed)).toBe('ignore')
    expect(transition('cancelled', 'refused')).toBe('ignore')
  })

  it('states only move forward: no state goes back to one it passed', () => {
    const forward: AttemptState[] = [
      'created',
      'pending',
      'action_required',
      'confirming',
      'authorised',
      'partially_captured',
      'captured',
      'partially_refunded',
      'refunded',
    ]
    for (let i = 0; i < forward.length; i++) {
      for (let j = 0; j < forward.length; j++) {
        if (j < i) expect(transition(forward[i]!, forward[j]!), `${forward[i]} -> ${forward[j]}`).toBe('ignore')
        if (j > i) expect(transition(forward[i]!, forward[j]!), `${forward[i]} -> ${forward[j]}`).toBe('move')
      }
    }
  })

  it('failed attempts are final; the same state is "same" (amounts or answer may change)', () => {
    for (const failed of FAILED_STATES) for (const to of ATTEMPT_STATES) if (to !== failed) expect(transition(failed, to)).toBe('ignore')
    for (const state of ATTEMPT_STATES) expect(transition(state, state)).toBe('same')
  })

  it('cancel applies to an authorised payment not yet captured (spec: Endpoints rule 5)', () => {
    expect(transition('authorised', 'cancelled')).toBe('move')
    for (const later of ['partially_captured', 'captured', 'partially_refunded', 'refunded'] as const)
      expect(transition(later, 'cancelled')).toBe('ignore')
    for (const to of ATTEMPT_STATES) if (to !== 'cancelled') expect(transition('cancelled', to)).toBe('ignore')
  })

  it('maps result codes and feed statuses; an unknown feed status maps to nothing', () => {
    expect(stateOfResultCode('Authorised', false)).toBe('authorised')
    expect(stateOfResultCode('Cancelled', false)).toBe('refused')
    expect(stateOfResultCode('RedirectShopper', true)).toBe('action_required')
    expect(stateOfResultCode('Received', false)).toBe('pending')
    // After the shopper's step, "wait" is the service confirming it: not a step, not a call to send again.
    expect(stateOfResultCode('Received', false, true)).toBe('confirming')
    expect(stateOfResultCode('Pending', false, true)).toBe('confirming')
    expect(stateOfResultCode('ChallengeShopper', true, true)).toBe('action_required')
    expect(stateOfResultCode('Authorised', false, true)).toBe('authorised')
    expect(stateOfPaymentStatus('redirect_shopper')).toBe('action_required')
    expect(stateOfPaymentStatus('partially_refunded')).toBe('partially_refunded')
    expect(stateOfPaymentStatus('chargeback')).toBeUndefined()
  })
})
