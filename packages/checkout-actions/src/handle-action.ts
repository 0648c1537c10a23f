import { performAction, type ActionOutcome, type PerformOptions } from './perform-action.js'
import { prepareAction } from './prepare-action.js'

/**
 * Prepares and performs a payment response's `action` in one call: checks every field first, then
 * runs the step in `options.container`, sizing a challenge to the container's width and the
 * window's height.
 */
export async function handleAction(action: unknown, options: PerformOptions): Promise<ActionOutcome> {
  const view = options.container.ownerDocument.defaultView!
  const step = prepareAction(action, {
    width: options.container.getBoundingClientRect().width || view.innerWidth,
    height: view.innerHeight,
  })
  return performAction(step, options)
}
