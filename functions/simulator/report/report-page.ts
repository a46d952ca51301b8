/**
 * The report page's own stylesheet and script (plain browser JavaScript, inlined after uPlot).
 * The script reads the charts from `#report-data`, draws each with uPlot and publishes
 * `window.joinerReport = { charts: { <id>: { series: [labels], points: [non-null counts], markers: n } } }`;
 * charts over time draw the scenario's steps as dashed vertical lines.
 */

export const REPORT_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fafafa; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
.meta { color: #555; } .failures { background: #fdecea; border: 1px solid #d62728; border-radius: 6px; padding: 8px 14px; } .ok { color: #2ca02c; font-weight: 600; } .bad { color: #d62728; font-weight: 600; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 10px 14px; min-width: 180px; }
.card-title { color: #666; font-size: 12px; } .card-value { font-size: 18px; font-weight: 600; } .card-sub { color: #666; font-size: 12px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 16px; }
.chart { background: #fff; border: 1px solid #ddd; border-radius: 6px; margin: 0; padding: 8px; }
.chart figcaption { font-weight: 600; margin-bottom: 4px; }
table { border-collapse: collapse; background: #fff; width: 100%; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
`;

export const REPORT_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var report = { charts: {} };
  function pathsOf(style) {
    if (style === 'points') return function () { return null; };
    if (style === 'step') return uPlot.paths.stepped({ align: 1 });
    if (style === 'bars') return uPlot.paths.bars({ size: [0.8, 40] });
    return undefined;
  }
  data.charts.forEach(function (chart) {
    var el = document.getElementById(chart.id);
    var width = Math.max(480, el.clientWidth - 16);
    var series = [{ label: chart.xLabel }].concat(chart.series.map(function (s) {
      var bars = s.style === 'bars';
      return {
        label: s.label,
        stroke: s.color,
        fill: bars ? s.color + '88' : undefined,
        width: s.style === 'points' ? 0 : 2,
        paths: pathsOf(s.style),
        points: { show: s.style === 'points', size: 9, fill: s.color, stroke: s.color },
        spanGaps: false,
      };
    }));
    var ticks = chart.yTicks;
    var axes = [
      { label: chart.xLabel },
      ticks
        ? { label: chart.yLabel, size: 90, splits: function () { return Object.keys(ticks).map(Number); },
            values: function (u, vals) { return vals.map(function (v) { return ticks[v] || ''; }); } }
        : { label: chart.yLabel },
    ];
    var scales = { x: chart.xRange ? { time: false, range: chart.xRange.slice() } : { time: false } };
    if (ticks) scales.y = { range: [0, Object.keys(ticks).length + 1] };
    var markers = chart.markers || [];
    var hooks = { draw: [function (u) {
      // The scenario's steps as dashed vertical lines, labelled at the top.
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = '#888';
      ctx.fillStyle = '#555';
      ctx.setLineDash([4, 4]);
      ctx.font = (10 * devicePixelRatio) + 'px sans-serif';
      markers.forEach(function (m, i) {
        var x = Math.round(u.valToPos(m.x, 'x', true));
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        // Staggered, so steps at nearly the same moment keep readable labels.
        ctx.fillText(m.label, x + 3, u.bbox.top + (10 + (i % 3) * 11) * devicePixelRatio);
      });
      ctx.restore();
    }] };
    new uPlot({ width: width, height: 280, series: series, axes: axes, scales: scales, hooks: hooks }, chart.data, el);
    report.charts[chart.id] = {
      series: chart.series.map(function (s) { return s.label; }),
      points: chart.data.slice(1).map(function (col) { return col.filter(function (v) { return v !== null; }).length; }),
      canvas: !!el.querySelector('canvas'),
      markers: markers.length,
    };
  });
  window.joinerReport = report;
})();
`;
