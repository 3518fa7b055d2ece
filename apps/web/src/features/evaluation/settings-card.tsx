import { EVALUATION_MESSAGES, type TTemplate } from '@switchboard/core';
import { Card } from '../../components/ui/card';
import { Label, Select, Textarea } from '../../components/ui/input';
import type { TestSettingsValues } from './use-test-settings';

/** Template picker, Testing Model picker, initial message and user description. */
export const SettingsCard = ({
  values,
  templates,
  models,
  onTemplate,
  onChange,
}: {
  values: TestSettingsValues;
  templates: TTemplate[];
  models: { value: string; label: string }[];
  onTemplate: (id: string) => void;
  onChange: <K extends keyof TestSettingsValues>(key: K, value: TestSettingsValues[K]) => void;
}) => (
  <Card className="grid gap-4 sm:grid-cols-2">
    <div>
      <Label htmlFor="template-picker">Template</Label>
      <Select id="template-picker" value={values.template} onChange={(event) => onTemplate(event.target.value)}>
        <option value="create">Create new template</option>
        <option value="">No Template</option>
        {templates.map((template) => (
          <option key={template._id} value={template._id}>
            {template.templateName}
          </option>
        ))}
      </Select>
    </div>
    <div>
      <Label htmlFor="testing-model">Testing Model</Label>
      <Select
        id="testing-model"
        value={values.testingModel}
        onChange={(event) => onChange('testingModel', event.target.value)}
        aria-describedby={!values.testingModel ? 'testing-model-hint' : undefined}
      >
        <option value="">Select a testing model</option>
        {values.testingModel && !models.some((model) => model.value === values.testingModel) ? (
          <option value={values.testingModel}>{values.testingModel}</option>
        ) : null}
        {models.map((model) => (
          <option key={model.value} value={model.value}>
            {model.label}
          </option>
        ))}
      </Select>
      {!values.testingModel ? (
        <p id="testing-model-hint" className="mt-1 text-xs text-muted">
          {EVALUATION_MESSAGES.selectTestingModel}
        </p>
      ) : null}
    </div>
    <div className="sm:col-span-2">
      <Label htmlFor="initial-message">Initial message</Label>
      <Textarea
        id="initial-message"
        value={values.initialMessage}
        maxLength={4000}
        onChange={(event) => onChange('initialMessage', event.target.value)}
      />
    </div>
    <div className="sm:col-span-2">
      <Label htmlFor="user-description">User description</Label>
      <Textarea
        id="user-description"
        value={values.shortuserDescription}
        maxLength={4000}
        onChange={(event) => onChange('shortuserDescription', event.target.value)}
      />
    </div>
  </Card>
);
