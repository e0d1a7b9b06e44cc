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
.progress { padding-left: 1.2rem; }
.progress .at, .progress .state { font-size: .85em; opacity: .8; }
.waterfall, .plot { display: block; width: 100%; height: auto; max-width: 62rem; margin: .5rem 0 1rem; font-size: 12px; }
.waterfall .row { fill: transparent; }
.waterfall .span:hover .row { fill: #8882; }
.waterfall .label, .waterfall .duration, .waterfall .axis, .plot .axis { fill: currentColor; }
.waterfall .duration, .waterfall .axis, .plot .axis { opacity: .75; }
.waterfall .tick, .plot .grid { stroke: #8884; stroke-width: 1; }
.waterfall .service { font-weight: 600; }
.waterfall .bar.failed { stroke: #d33; stroke-width: 2; }
.waterfall .span.failed .label { fill: #d33; }
.svc-0 { fill: #4e79a7; } .svc-1 { fill: #f28e2b; } .svc-2 { fill: #59a14f; } .svc-3 { fill: #b07aa1; }
.svc-4 { fill: #76b7b2; } .svc-5 { fill: #edc948; } .svc-6 { fill: #ff9da7; } .svc-7 { fill: #9c755f; }
tspan.service { fill: currentColor; }
.plot .line { fill: none; stroke-width: 2; }
.series-0 { stroke: #4e79a7; fill: #4e79a7; background: #4e79a7; } .series-1 { stroke: #f28e2b; fill: #f28e2b; background: #f28e2b; }
.series-2 { stroke: #59a14f; fill: #59a14f; background: #59a14f; } .series-3 { stroke: #b07aa1; fill: #b07aa1; background: #b07aa1; }
.series-4 { stroke: #76b7b2; fill: #76b7b2; background: #76b7b2; } .series-5 { stroke: #e15759; fill: #e15759; background: #e15759; }
.series-6 { stroke: #edc948; fill: #edc948; background: #edc948; } .series-7 { stroke: #9c755f; fill: #9c755f; background: #9c755f; }
.plot polyline.line { fill: none; }
.history { margin: 0; }
.legend { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; list-style: none; padding: 0; margin: 0 0 1rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: .2rem; margin-right: .35rem; vertical-align: -.05rem; }
tr.failed td { background: #c331; }
tr.changed td { background: #fa02; }
.spans small { opacity: .7; }
.spans details dl { font-size: .9em; }
.spans .depth-1 { padding-left: 1.4rem; } .spans .depth-2 { padding-left: 2.2rem; } .spans .depth-3 { padding-left: 3rem; }
.spans .depth-4, .spans .depth-5, .spans .depth-6, .spans .depth-7, .spans .depth-8 { padding-left: 3.8rem; }
.spans td:nth-child(1), .spans td:nth-child(3), .spans td:nth-child(4) { white-space: nowrap; }
`;
