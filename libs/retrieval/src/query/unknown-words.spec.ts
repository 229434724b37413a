import { mostlyUnknownWords, unknownQueryWords } from './unknown-words';

const vocabulary = (...terms: string[]) => {
  const set = new Set(terms);
  return (t: string) => set.has(t);
};

describe('unknownQueryWords', () => {
  it('lists the words no file or past task holds, leaving out stop words and numbers', () => {
    expect(unknownQueryWords('the Kubernetes helm chart in 2.3', vocabulary('chart'))).toEqual({ words: ['kubernetes', 'helm', 'chart'], unknown: ['kubernetes', 'helm'] });
  });

  it('knows an identifier that occurs whole, or whose parts mostly do', () => {
    const known = vocabulary('parse', 'http', 'response', 'getuserbyid');
    expect(unknownQueryWords('parseHttpResponse getUserById', known).unknown).toEqual([]);
    expect(unknownQueryWords('parseFluxCapacitor', known).unknown).toEqual(['parsefluxcapacitor']);
  });

  it('counts a repeated word once', () => {
    expect(unknownQueryWords('helm helm chart', vocabulary('chart'))).toEqual({ words: ['helm', 'chart'], unknown: ['helm'] });
  });
});

describe('mostlyUnknownWords', () => {
  const known = vocabulary('chart', 'retry', 'fetch', 'add');
  it('flags a short query when more than half of its words are unknown', () => {
    expect(mostlyUnknownWords('kubernetes helm chart', known)).toEqual(['kubernetes', 'helm']);
    expect(mostlyUnknownWords('add kubernetes helm chart', known)).toBeUndefined();
  });

  it('leaves a query alone when most of its words are known', () => {
    expect(mostlyUnknownWords('add retry to fetcher', known)).toBeUndefined();
    expect(mostlyUnknownWords('kubernetes chart', known)).toBeUndefined();
    expect(mostlyUnknownWords('chart', known)).toBeUndefined();
  });

  it('leaves long prose alone: issue reports hold words no code does', () => {
    expect(mostlyUnknownWords('when I upgraded yesterday the chart suddenly stopped rendering labels properly everywhere', known)).toBeUndefined();
  });
});
