// Draws each chart of the embedded figures with uPlot and marks its container with the points it drew
// (data-points), which report --check reads back.
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
  function full(v) {
    if (v == null) return '–';
    var digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : Math.abs(v) >= 1 ? 2 : 3;
    return v.toLocaleString('en-US', {maximumFractionDigits: digits});
  }
  // 1.25M, 8.4K...; the sizes' ticks with 2 digits, since a size run holds a few documents more than its label.
  function short(v, digits) {
    if (v == null) return '';  // uPlot gives null for the ticks it leaves unlabelled on a log axis
    var a = Math.abs(v), p = digits || 3;
    if (a >= 1e9) return +(v / 1e9).toPrecision(p) + 'B';
    if (a >= 1e6) return +(v / 1e6).toPrecision(p) + 'M';
    if (a >= 1e3) return +(v / 1e3).toPrecision(p) + 'K';
    return +v.toPrecision(p) + '';
  }
  data.charts.forEach(function (chart) {
    var box = document.getElementById(chart.id);
    var xs = chart.data[0];
    var opts = {
      title: chart.title,
      width: Math.max(box.clientWidth, 320),
      height: 280,
      // The sizes' axis spans the sizes run with a margin, not the decades around them.
      scales: {x: chart.sizes ? {time: false, distr: 3, log: 10, range: function (u, min, max) { return [min / 1.3, max * 1.3]; }}
        : {time: false}},
      axes: [
        {label: chart.xLabel, values: function (u, ticks) { return ticks.map(function (t) { return short(t, chart.sizes ? 2 : 3); }); },
          // On the sizes' log axis, a tick at each size run, every one labelled.
          splits: chart.sizes ? function () { return xs; } : undefined,
          filter: chart.sizes ? function (u, splits) { return splits; } : undefined},
        {label: chart.yLabel, size: 60, values: function (u, ticks) { return ticks.map(function (t) { return short(t); }); }}
      ],
      series: [{label: chart.sizes ? 'documents' : 'seconds', value: function (u, v) { return full(v); }}].concat(
        chart.series.map(function (s) {
          return {label: s.label, stroke: palette[s.color % palette.length], width: 2, spanGaps: true,
            dash: s.compared ? [6, 4] : undefined, points: {show: true, size: chart.sizes ? 7 : 3},
            value: function (u, v) { return full(v); }};
        })),
      legend: {live: true},
      hooks: {draw: [function (u) {
        var points = 0;
        for (var i = 1; i < u.data.length; i++) {
          if (u.series[i].show) u.data[i].forEach(function (y) { if (y != null) points++; });
        }
        box.dataset.points = points;
      }]}
    };
    new uPlot(opts, chart.data, box);
  });
  document.body.dataset.charts = data.charts.length;
})();
