import { useQuery } from "@tanstack/react-query";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "react-toastify";
import { ROLES, type AdminUser, type DeleteUserRequest, type Role } from "@taskmint/shared";
import { Avatar } from "../../../components/ui/Avatar.tsx";
import { PageHeader } from "../../../components/ui/PageHeader.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { EmptyState } from "../../../components/ui/States.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { useCursorPages } from "../../../lib/cursorPages.ts";
import { formatCoins } from "../../../lib/format.ts";
import { useChangeRole, useDeleteUser } from "../api.ts";
import { adminQueries } from "../queries.ts";
import { DeleteUserDialog } from "../components/DeleteUserDialog.tsx";

export function ManageUsersPage() {
  const { data: me } = useMe();
  const paging = useCursorPages();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [role, setRole] = useState<Role | "">("");
  const users = useQuery(adminQueries.users(paging.query, query, role));
  const changeRole = useChangeRole();
  const remove = useDeleteUser();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const onRole = (user: AdminUser, next: Role) =>
    changeRole.mutate(
      { id: user.id, role: next },
      {
        onSuccess: () => toast.success(`${user.name} is now ${next === "admin" ? "an" : "a"} ${next}`),
        onError: (error) => toast.error(errorMessage(error, "Failed to update role")),
      },
    );

  const confirmDelete = (choice: DeleteUserRequest) => {
    if (!deleting) return;
    remove.mutate(
      { id: deleting.id, choice },
      {
        onSuccess: ({ settled_coins }) => {
          const outcome = choice.coins === "forfeit" ? "forfeited to the platform" : "recorded as paid out";
          toast.success(`${deleting.name} was deleted. ${formatCoins(settled_coins)} coins were ${outcome}.`);
          setDeleting(null);
        },
        onError: (error) => {
          toast.error(errorMessage(error, "Failed to delete user"));
          setDeleting(null);
        },
      },
    );
  };

  return (
    <div>
      <PageHeader title="Manage Users" />
      <form
        className="mb-4 flex flex-wrap gap-2"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(search.trim());
          paging.reset();
        }}
      >
        <label htmlFor="user-search" className="sr-only">
          Search by name or email
        </label>
        <input
          id="user-search"
          type="search"
          className="input input-sm w-64 max-w-full"
          placeholder="Search by name or email"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <select
          className="select select-sm w-auto"
          aria-label="Filter by role"
          value={role}
          onChange={(event) => {
            setRole(event.target.value as Role | "");
            paging.reset();
          }}
        >
          <option value="">All roles</option>
          {ROLES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-sm btn-primary">
          Search
        </button>
      </form>
      <PagedList
        query={users}
        errorMessage="Failed to fetch users"
        empty={<EmptyState title="No users match." />}
        onPage={(page) => paging.go(page, users.data)}
      >
        {(items) => (
          <DataTable headers={["User", "Role", "Coins", ""]}>
            {items.map((user) => (
              <tr key={user.id}>
                <td>
                  <div className="flex items-center gap-3">
                    <Avatar photo={user.photo} name={user.name} size="size-9" />
                    <div>
                      <p className="font-medium">{user.name}</p>
                      <p className="text-xs text-base-content/60">{user.email}</p>
                    </div>
                  </div>
                </td>
                <td>
                  <select
                    className="select select-sm w-auto"
                    aria-label={`Role of ${user.name}`}
                    value={user.role}
                    disabled={changeRole.isPending}
                    onChange={(event) => onRole(user, event.target.value as Role)}
                  >
                    {ROLES.map((value) => (
                      <option key={value} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{formatCoins(user.coins)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm text-error"
                    aria-label={`Delete ${user.name}`}
                    disabled={user.id === me?.id}
                    title={user.id === me?.id ? "You cannot delete your own account" : undefined}
                    onClick={() => setDeleting(user)}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      <DeleteUserDialog
        user={deleting}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
