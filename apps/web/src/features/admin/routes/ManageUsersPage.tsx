import { FilterSelect, type FilterOption } from "../../../components/form/FilterSelect.tsx";
import { DataTable } from "../../../components/ui/DataTable.tsx";
import { useState } from "react";
import { toast } from "react-toastify";
import { ROLES, USER_SEARCH_MAX, type AdminUser, type Role } from "@taskmint/shared";
import { SearchForm } from "../../../components/form/SearchForm.tsx";
import { Avatar } from "../../../components/ui/Avatar.tsx";
import { DeleteButton } from "../../../components/ui/DeleteButton.tsx";
import { Email } from "../../../components/ui/Email.tsx";
import { Page } from "../../../components/ui/Page.tsx";
import { PagedList } from "../../../components/ui/PagedList.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useMe } from "../../../lib/auth.ts";
import { coinCount } from "../../../lib/format.ts";
import { useChangeRole } from "../api.ts";
import { useTwoFactorGate } from "../../../components/two-factor/TwoFactorNeeded.tsx";
import { adminQueries } from "../queries.ts";
import { DeleteUserDialog } from "../components/DeleteUserDialog.tsx";

const ROLE_FILTERS: FilterOption<Role>[] = [
  { value: "", label: "All roles" },
  ...ROLES.map((value) => ({ value, label: value })),
];

export function ManageUsersPage() {
  const { data: me } = useMe();
  const [query, setQuery] = useState("");
  const [role, setRole] = useState<Role | "">("");
  const changeRole = useChangeRole();
  const gate = useTwoFactorGate("change roles or delete users", "change");
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const onRole = (user: AdminUser, next: Role) =>
    changeRole.mutate(
      { id: user.id, role: next },
      {
        onSuccess: () => toast.success(`${user.name} is now ${next === "admin" ? "an" : "a"} ${next}`),
        onError: (error) => toast.error(errorMessage(error, "Failed to update role")),
      },
    );

  return (
    <Page title="Manage users">
      {gate.notice}
      <SearchForm
        id="user-search"
        label="Search by name or email"
        maxLength={USER_SEARCH_MAX}
        onSearch={setQuery}
      >
        <FilterSelect label="Filter by role" value={role} options={ROLE_FILTERS} onChange={setRole} />
      </SearchForm>
      <PagedList
        key={`${query} ${role}`}
        keysetPages={(page) => adminQueries.users(page, query, role)}
        errorMessage="Failed to fetch users"
        empty="No users match this search."
      >
        {(items) => (
          <DataTable numeric={["Coins"]} headers={["User", "Role", "Coins", ""]}>
            {items.map((user) => (
              <tr key={user.id}>
                <td>
                  <div className="flex items-center gap-3">
                    <Avatar photo={user.photo} name={user.name} size="size-9" />
                    <div>
                      <p className="font-medium">{user.name}</p>
                      <Email address={user.email} className="text-xs text-base-content/70" />
                    </div>
                  </div>
                </td>
                <td>
                  {gate.locked ? (
                    <span className="capitalize">{user.role}</span>
                  ) : (
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
                  )}
                </td>
                <td>{coinCount(user.coins)}</td>
                <td>
                  {gate.locked ? (
                    gate.lockedAction
                  ) : (
                    <DeleteButton
                      what={user.name}
                      onClick={() => setDeleting(user)}
                      disabledBecause={user.id === me?.id ? "You cannot delete your own account" : undefined}
                    />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </PagedList>
      {deleting && <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />}
    </Page>
  );
}
