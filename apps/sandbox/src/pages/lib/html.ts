/**
 * Markup for the sandbox's pages, escaped by default (as hono's `html` helper is): every value put
 * into an `html` template is escaped, so a value a merchant, a shop or a request supplied can
 * never become markup. Only markup this module made goes in as it is.
 */

let made: (markup: string) => Html
let isHtml: (value: unknown) => value is Html

/** Markup from {@link html}. An object, not a string, so a plain string can never pass for markup. */
export class Html {
  readonly #markup: string

  private constructor(markup: string) {
    this.#markup = markup
  }

  static {
    made = (markup) => new Html(markup)
    // The private field, not the prototype: an object dressed up as an Html is escaped like any value.
    isHtml = (value): value is Html => typeof value === 'object' && value !== null && #markup in value
  }

  /** The markup as text, for the response body. */
  toString(): string {
    return this.#markup
  }
}

/** What a template takes: text and numbers are escaped; fragments go in as they are, arrays joined. */
export type HtmlValue = string | number | Html | readonly (string | number | Html)[]

/**
 * Escapes text for element content and for a quoted attribute value (HTML Living Standard, 13.1.3
 * and 13.1.2.3). Attribute values in the templates are always quoted: escaping cannot protect an
 * unquoted one.
 */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function markupOf(value: string | number | Html): string {
  return isHtml(value) ? value.toString() : escapeText(String(value))
}

/** A tagged template: html`<p>${text}</p>` escapes `text`; an `Html` fragment inside is not escaped twice. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let markup = strings[0]!
  values.forEach((value, i) => {
    markup +=
      (Array.isArray(value)
        ? (value as readonly (string | number | Html)[]).map(markupOf).join('')
        : markupOf(value as string | number | Html)) + strings[i + 1]!
  })
  return made(markup)
}

/**
 * JSON for a `<script type="application/json">` block. Script content is raw text, without
 * character references (HTML Living Standard, 13.1.2.6), so escaping would corrupt the JSON; "<" is
 * written as \u003c instead, so no "</script>" can end the block early.
 */
export function scriptJson(value: unknown): Html {
  return made(JSON.stringify(value).replace(/</g, '\\u003c'))
}
