/** The console's one stylesheet, served at `<base>/assets/console.css` (the CSP allows no inline style). */
export const CONSOLE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; line-height: 1.45; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid #8884; }
.brand { font-weight: 600; }
nav { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; flex: 1; }
nav .sign-out { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
main { padding: 1rem; max-width: 70rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #8883; vertical-align: top; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.text, td, dd { white-space: pre-wrap; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.notice { padding: .5rem .8rem; border-radius: .3rem; }
.notice.ok { background: #2a72; }
.notice.problem { background: #c332; }
.decide { display: flex; flex-wrap: wrap; gap: .6rem; align-items: end; margin-top: 1rem; }
.decide input[name=reason] { min-width: 20rem; }
.message { border-left: 3px solid #8886; padding: .2rem .8rem; margin: .5rem 0; }
.message .role { font-size: .85em; opacity: .8; }
.sign-in { display: grid; gap: .5rem; max-width: 28rem; }
.hint { font-size: .9em; opacity: .8; }
`;
