/** A form field's error message, linked to the field with aria-describedby={id}. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <span id={id} role="alert" className="mt-1 block text-sm text-danger">
      {message.charAt(0).toUpperCase() + message.slice(1)}
    </span>
  );
}
