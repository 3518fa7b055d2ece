import { Construction } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../components/ui/card';

/** Says plainly that a page's feature is not part of this release yet. */
export const FeaturePending = ({ title, description }: { title: string; description: string }) => (
  <div className="mx-auto max-w-2xl">
    <Card className="text-center">
      <Construction className="mx-auto text-primary" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-muted">{description}</p>
      <p className="mt-2 text-sm text-muted">This part of Switchboard is not built yet in this version.</p>
      <Link to="/agents" className="mt-4 inline-block text-sm text-primary underline">
        Back to Agents
      </Link>
    </Card>
  </div>
);
