import { controlClient } from '../../electron/sandbox/control/client'
import { expect, test } from './fixtures'
import { ProspectingPage } from './pages/prospecting'
import { SettingsPage } from './pages/settings'
import { ShellPage } from './pages/shell'

const secretKey = 'lk_test_Zq8Vn3Rt7Yp2Kd5Wm9Xc'

test('the shell renders on the sandbox with the balance in the header', async ({ app }) => {
  const shell = new ShellPage(app)
  await expect(shell.sidebar()).toContainText('Lists')
  await expect(shell.sidebar()).toContainText('Company search')
  await expect(shell.sidebar()).toContainText('Settings')
  await expect(app.locator('[data-test="sandbox-banner"]')).toBeVisible()
  await expect(shell.credits()).toContainText(/[\d,.]+ credits/)
  await expect(app.getByText('Sandbox · synthetic data')).toBeVisible()
  // The web host's page is cross-origin isolated: no other site's window keeps a hold on it, and
  // its clock reads to microseconds (the bench's frame times).
  expect(await app.evaluate(() => crossOriginIsolated)).toBe(true)
  await shell.screenshot('shell-home')
})

test('the balance refreshed by hand: its icon turns while it is read, a second press asks nothing more', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const control = controlClient(await new ProspectingPage(app).sandboxUrl())
  await expect(shell.credits()).toContainText(/[\d,.]+ credits/)
  // The next balance read takes 3 s: both presses and the look fall inside it.
  await control.setFaults([{ endpoint: 'GET /account', kind: 'slow', delayMs: 3_000, times: 1 }])
  await control.clearLog()
  const refresh = app.locator('[data-test="account-refresh"]')
  await refresh.click()
  await expect(refresh).toHaveAttribute('aria-busy', 'true')
  await refresh.click()
  await expect(refresh).toHaveAttribute('aria-busy', 'true')
  await expect(refresh.locator('.turning')).toHaveCount(1)
  await shell.screenshot('balance-refreshing')
  await expect(refresh).toHaveAttribute('aria-busy', 'false', { timeout: 10_000 })
  await expect(refresh.locator('.turning')).toHaveCount(0)
  await expect(shell.credits()).toContainText(/[\d,.]+ credits/)
  const reads = (await control.log()).requests.filter(
    (entry) => entry.method === 'GET' && entry.path.endsWith('/account'),
  )
  expect(reads).toHaveLength(1)
})

test('settings save a key that never reaches the page or the wire', async ({ app, webHost }) => {
  const shell = new ShellPage(app)
  await shell.open('Settings')
  const settings = new SettingsPage(app)
  await expect(settings.keyStatus()).toContainText('Not set')
  await settings.saveKey(secretKey, 'persistent')
  await expect(settings.keyStatus()).toContainText('Set')
  await expect(settings.masked()).toHaveText(`••••••••${secretKey.slice(-4)}`)
  await expect(settings.keyInput()).toHaveValue('')
  await shell.screenshot('settings-key-saved')

  await app.reload()
  await expect(settings.keyStatus()).toContainText('Set')
  const html = await app.content()
  expect(html).not.toContain(secretKey)
  expect(await app.locator('body').innerText()).not.toContain(secretKey)

  // The key went to the backend once, in the call that saved it, and never came back.
  const carrying = webHost.frames.filter((frame) => frame.includes(secretKey))
  expect(carrying).toHaveLength(1)
  expect(JSON.parse(carrying[0]!)).toMatchObject({ channel: 'settings/setKey' })
  expect(webHost.frames.length).toBeGreaterThan(4)
})

test('an invalid service address is refused with a clear message', async ({ app }) => {
  await new ShellPage(app).open('Settings')
  await app.locator('[data-test="base-url"] input').fill('http://api.example.com/api/v2')
  await app.locator('[data-test="save-address"]').click()
  await expect(app.getByText('Use an https:// address')).toBeVisible()
})
