import type { RoutingArmFigures, RoutingReport } from './run-routing-eval.ts';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const tokens = (value: number) => value.toFixed(0);

/** Each figure the routing report shows, with and without the router. */
const ROWS: { label: string; value: (arm: RoutingArmFigures) => string }[] = [
  { label: 'wrong-tool rate', value: (arm) => percent(arm.wrongToolRate) },
  { label: 'right-tool rate', value: (arm) => percent(arm.rightToolRate) },
  { label: 'clarification rate', value: (arm) => percent(arm.clarificationRate) },
  { label: 'prompt tokens per step', value: (arm) => tokens(arm.promptTokensPerStep) },
  { label: '  of which tool declarations', value: (arm) => tokens(arm.toolTokensPerStep) },
  { label: 'model steps', value: (arm) => String(arm.modelSteps) },
];

/** The routing report as a terminal table, with the targets of issue 19 marked met or not. */
export function formatRoutingReport(report: RoutingReport): string {
  const { catalogue, router } = report;
  const mark = (met: boolean) => (met ? 'met' : 'NOT met');
  const width = Math.max(...ROWS.map((row) => row.label.length)) + 2;
  const lines = [
    `Tool routing: ${catalogue.tools} tools, ${catalogue.requests} labelled requests of ${catalogue.requestsFile} (${catalogue.expectingTools} expect tools, ${catalogue.clarify} clarify, ${catalogue.unsupported} unsupported)`,
    `Chooser: ${report.model}, the same model with and without the router. Router: recall threshold ${router.recallThreshold}, acceptance threshold ${router.acceptThreshold}, top ${router.topK}, ${recallLabel(router)}.`,
    '',
    `${''.padEnd(width)}${'with router'.padStart(14)}${'without'.padStart(12)}`,
    ...ROWS.map(
      (row) =>
        `${row.label.padEnd(width)}${row.value(report.withRouter).padStart(14)}${row.value(report.withoutRouter).padStart(12)}`,
    ),
    '',
    `recall@${router.topK}: ${percent(report.recallAtK)} (target ≥ 95%: ${mark(report.recallAtK >= 0.95)})`,
    `prompt tokens per step cut by ${percent(report.promptTokenReduction)} (target ≥ 80%: ${mark(report.promptTokenReduction >= 0.8)})`,
    `wrong-tool rate ${percent(report.withRouter.wrongToolRate)} with the router, ${percent(report.withoutRouter.wrongToolRate)} without (target: no worse: ${mark(report.withRouter.wrongToolRate <= report.withoutRouter.wrongToolRate)})`,
    `requests labelled clarify that were clarified: ${percent(report.clarifiedWhenAmbiguous)}; labelled unsupported that were declined: ${percent(report.declinedWhenUnsupported)}`,
  ];
  for (const [arm, figures] of [
    ['with the router', report.withRouter],
    ['without the router', report.withoutRouter],
  ] as const) {
    if (figures.modelErrors > 0)
      lines.push(
        `the model endpoint rejected ${figures.modelErrors} request${figures.modelErrors === 1 ? '' : 's'} ${arm} (MODEL_BAD_REQUEST, e.g. more tools than it takes); the rates of that arm leave them out`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function recallLabel({ recall, embeddingModel, embeddingWeight }: RoutingReport['router']): string {
  if (recall === 'lexical') return 'lexical recall (BM25)';
  if (recall === 'embedding') return `embedding recall (${embeddingModel})`;
  return `hybrid recall (${embeddingModel} weighing ${embeddingWeight}, BM25 the rest)`;
}
