import { useEffect } from 'react';
import { OpenPanel } from './components/OpenPanel';
import { ReportView } from './components/ReportView';
import { useStore } from './store';
import { pickTransport, TransportError } from './transport';

export function App() {
  const { connect, info, report, artifact, busy, error } = useStore();
  useEffect(() => {
    try {
      void connect(pickTransport());
    } catch (e) {
      useStore.setState({ error: e instanceof TransportError ? e.message : String(e) });
    }
  }, [connect]);

  return (
    <div className="app">
      <header className="topbar">
        <h1>Reprise</h1>
        <span className="subtitle">forensic replay workbench</span>
        <span className="engine" data-testid="engine">
          {info ? `engine ${info.version} · ${info.transport}` : 'connecting…'}
        </span>
      </header>
      <main>
        <OpenPanel />
        {busy && (
          <p role="status" className="busy">
            Checking {artifact?.name}…
          </p>
        )}
        {error && (
          <p role="alert" className="error" data-testid="error">
            {error}
          </p>
        )}
        {report && <ReportView report={report} artifact={artifact} />}
      </main>
    </div>
  );
}
