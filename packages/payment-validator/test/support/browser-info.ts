/** Browser data as a page collects it and the server completes it: valid by every EMV rule. */
export const BROWSER_INFO = Object.freeze({
  userAgent: 'UA',
  acceptHeader: 'text/html',
  language: 'nl-NL',
  colorDepth: 24,
  screenHeight: 1080,
  screenWidth: 1920,
  timeZoneOffset: -60,
  javaEnabled: false,
  javaScriptEnabled: true,
})
