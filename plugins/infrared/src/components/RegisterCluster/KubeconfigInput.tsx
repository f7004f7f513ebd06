import { ChangeEvent, useRef } from 'react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import AttachFileIcon from '@material-ui/icons/AttachFile';
import type {
  FieldError,
  KubeconfigInspection,
} from '@infrared-clusters/plugin-infrared-common';
import { KubeconfigSummary } from './KubeconfigSummary';

/** A file's text (FileReader: Blob.text is missing in older browsers and jsdom). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

export interface KubeconfigInputProps {
  value: string;
  onChange: (text: string) => void;
  inspection?: KubeconfigInspection;
  errors?: FieldError[];
}

/** Paste or upload a kubeconfig; it is checked as it changes. Nothing here stores or logs it. */
export const KubeconfigInput = ({
  value,
  onChange,
  inspection,
  errors,
}: KubeconfigInputProps) => {
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) onChange(await readText(file));
  };
  return (
    <Box>
      <TextField
        label="Kubeconfig"
        placeholder="Paste the kubeconfig (kubectl config view --raw --minify --flatten)"
        multiline
        minRows={6}
        maxRows={10}
        fullWidth
        variant="outlined"
        value={value}
        onChange={e => onChange(e.target.value)}
        helperText={
          value.trim()
            ? undefined
            : 'The user needs a token or a client certificate inline; exec, auth-provider and token files are refused.'
        }
        inputProps={{
          'aria-label': 'Kubeconfig',
          spellCheck: false,
          autoComplete: 'off',
          style: { fontFamily: 'monospace', fontSize: 12 },
        }}
      />
      <Box my={1}>
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="kubeconfig-file"
          onChange={upload}
        />
        <Button
          size="small"
          startIcon={<AttachFileIcon />}
          onClick={() => fileInput.current?.click()}
        >
          Upload a kubeconfig file
        </Button>
      </Box>
      {value.trim() && (
        <KubeconfigSummary inspection={inspection} errors={errors} />
      )}
    </Box>
  );
};
