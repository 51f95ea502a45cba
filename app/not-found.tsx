import { NotFoundMessage } from "@/components/not-found-message";

export default function NotFound() {
  return (
    <main>
      <NotFoundMessage className="py-24" linkLabel="Go home" />
    </main>
  );
}
