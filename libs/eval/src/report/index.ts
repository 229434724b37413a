export * from './bar-chart.svg';
export * from './evaluate-runs';
export * from './markdown-report';
