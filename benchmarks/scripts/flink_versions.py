#!/usr/bin/env python3
"""One file comparing two Flink lines on the same day and machine.

Usage: flink_versions.py ROUNDS_FOLDER RELIABILITY_OLD RELIABILITY_NEW RESCALED_OLD RESCALED_NEW OUT_MD OUT_JSON

ROUNDS_FOLDER holds one folder per pipeline round, named <n>-<version> (1-1.20, 2-2.2, ...), each with the
pipeline.json `bin/volumizer bench pipeline` wrote; the reliability files are the JSON `bench reliability` wrote.
Each version's pipeline figure is the median of its rounds, each ratio the median of its rounds' ratios to the
baseline measured in the same round; the last column compares the two versions' medians.
"""
import json
import os
import statistics
import sys

SUSTAINED = ', sustained'
PAIRS = [  # job, its baseline in the same round, the row's name
    ('import job, keyed by parent', 'raw MongoDB bulk upsert loop (baseline)',
     'import job / raw bulk-upsert loop, every service on the same cores'),
    ('import job, keyed by parent, store on its own cores',
     'raw MongoDB bulk upsert loop (baseline), store on its own cores',
     'import job / raw bulk-upsert loop, MongoDB on a core of its own'),
    ('import job, keyed by parent', 'import job, spread by document', 'import keyed by parent / spread by document'),
    ('index job', 'raw Elasticsearch _bulk loop (baseline)', 'index job / raw _bulk loop'),
]
ALONE = [  # a measure without a baseline, the row's name
    ('end to end generate -> import -> index', 'end to end, generate → import → index'),
    ("live end to end, its files' text", "live profile: its files' text, beside its import"),
    ('generate job (into Kafka)', 'generate job (into Kafka), whole run'),
]


def median(values):
    return statistics.median(values)


def sample(run, key):
    samples = run['samples per round']
    return samples[key + SUSTAINED][0] if key + SUSTAINED in samples else samples[key][0]


def pipeline(folder):
    rounds = {}
    for name in sorted(os.listdir(folder)):
        number, version = name.split('-', 1)
        with open(os.path.join(folder, name, 'pipeline.json')) as file:
            rounds.setdefault(version, []).append((int(number), json.load(file)))
    return rounds


def reliability_rows(old, new):
    rows = []
    for scenario in [row['scenario'] for row in old['rows']]:
        pair = [next(row for row in run['rows'] if row['scenario'] == scenario) for run in (old, new)]
        rows.append((scenario, pair))
    return rows


def main(rounds_folder, reliability_old, reliability_new, rescaled_old, rescaled_new, out_md, out_json):
    rounds = pipeline(rounds_folder)
    old, new = sorted(rounds, key=lambda version: [int(part) for part in version.split('.')])
    runs = {version: [run for _, run in sorted(rounds[version])] for version in rounds}
    first = runs[old][0]
    load = lambda path: json.load(open(path))
    faults = reliability_rows(load(reliability_old), load(reliability_new))
    rescaled = reliability_rows(load(rescaled_old), load(rescaled_new))
    figures = {'documents': first['documents'], 'rounds': {v: [n for n, _ in sorted(rounds[v])] for v in rounds},
               'pipeline': [], 'reliability': []}
    md = ['# Flink %s against Flink %s' % (new, old), '',
          'Measured %s on %s. Pipeline: `bin/volumizer bench pipeline --customers 1000 --rounds 1` (%s documents, '
          'parallelism 2), the two versions alternated (rounds %s on %s, %s on %s), each on a session cluster of its '
          'own version beside the same services. Reliability: `bin/volumizer bench reliability` (%s documents), '
          'nothing missing, extra or at another version in either store being the target of every row.' % (
              first['date'], first['machine'], format(first['documents'], ','),
              ', '.join(map(str, figures['rounds'][old])), old, ', '.join(map(str, figures['rounds'][new])), new,
              format(faults[0][1][0]['documents'], ',')), '',
          '## Pipeline', '',
          '| measure (sustained rate) | Flink %s: docs/s; ratio to its baseline (each round) | Flink %s: docs/s; ratio '
          '(each round) | %s / %s |' % (old, new, new, old), '|---|---|---|---|']
    for job, baseline, name in PAIRS:
        cells, medians = [], {}
        for version in (old, new):
            ratios = [sample(run, job) / sample(run, baseline) for run in runs[version]]
            rates = [sample(run, job) for run in runs[version]]
            medians[version] = median(ratios)
            cells.append('%s; %.2f× (%s)' % (format(round(median(rates)), ','), median(ratios),
                                            ', '.join('%.2f' % ratio for ratio in ratios)))
            figures['pipeline'].append({'measure': name, 'version': version, 'ratios': ratios, 'rates': rates})
        md.append('| %s | %s | %s | %.2f× |' % (name, cells[0], cells[1], medians[new] / medians[old]))
    for key, name in ALONE:
        cells, medians = [], {}
        for version in (old, new):
            rates = [sample(run, key) for run in runs[version]]
            medians[version] = median(rates)
            cells.append('%s (%s)' % (format(round(median(rates)), ','),
                                      ', '.join(format(round(rate), ',') for rate in rates)))
            figures['pipeline'].append({'measure': name, 'version': version, 'rates': rates})
        md.append('| %s | %s | %s | %.2f× |' % (name, cells[0], cells[1], medians[new] / medians[old]))
    dead = {version: sum(run['samples per round'][key][0] for run in runs[version] for key in run['samples per round']
                         if key.endswith('dead-lettered') and 'spread by document' not in key) for version in runs}
    figures['deadLettered'] = dead
    md.append('| documents dead-lettered by the measured jobs (the spread-by-document baseline apart) | %d | %d | |'
              % (dead[old], dead[new]))
    md += ['', '## Reliability', '',
           '| scenario | Flink %s: MongoDB / search engine found (missing, extra, other version); dead letters; '
           'recovery; docs/s | Flink %s: the same | docs/s %s / %s |' % (old, new, new, old), '|---|---|---|---|']
    for scenario, pair in faults + rescaled:
        cells = []
        for row in pair:
            stores = ' / '.join('%s (%d, %d, %d)' % (format(row[store]['found'], ','), row[store]['missing'],
                                                     row[store]['extra'], row[store]['otherVersion'])
                                for store in ('mongodb', 'elasticsearch'))
            cells.append('%s; %d; %.0f s; %s' % (stores, row['unexpectedDeadLetters'] + row['expectedDeadLetters'],
                                                  row['recoverySeconds'] or 0, format(round(row['docsPerSecond']), ',')))
        figures['reliability'].append({'scenario': scenario, old: pair[0], new: pair[1]})
        md.append('| %s | %s | %s | %.2f× |' % (pair[0]['fault'], cells[0], cells[1],
                                                pair[1]['docsPerSecond'] / pair[0]['docsPerSecond']))
    for (scenario, pair) in rescaled:
        md += ['', 'Rescaled (%s): each phase\'s parallelism, stop to running again, docs/s into MongoDB.' % scenario,
               '', '| parallelism | Flink %s | Flink %s |' % (old, new), '|---|---|---|']
        for before, after in zip(pair[0]['phases'], pair[1]['phases']):
            phase = lambda p: '%s; %s docs/s' % ('submitted' if p['resumeSeconds'] is None else '%.1f s' % p['resumeSeconds'],
                                                  format(round(p['docsPerSecond']), ','))
            md.append('| %d | %s | %s |' % (before['parallelism'], phase(before), phase(after)))
    with open(out_md, 'w') as file:
        file.write('\n'.join(md) + '\n')
    with open(out_json, 'w') as file:
        json.dump(figures, file, indent=2)


if __name__ == '__main__':
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    main(*sys.argv[1:])
