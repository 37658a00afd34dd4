import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { ShellPage } from './pages/shell'

const jobId = 'list-3f2b9c1e-0d4a-4e53-9a51-6c1d2e7f8a90-run-1'
const jobFolder = join('state', 'sandbox', 'jobs', jobId)

// A run's record cut off mid-write, as a crash or a full disk leaves it, in the sandbox's ledger.
test.use({
  homeFiles: { [join(jobFolder, 'job.json')]: `{"id":"${jobId}","kind":"enrichment","state":"runn` },
})

test('a torn job record is named at start, with where it went and what that means', async ({
  app,
  webHost,
}) => {
  const notice = app.locator('.n-notification').filter({ hasText: 'A job could not be read' })
  await expect(notice).toBeVisible()
  const folder = join(webHost.home, jobFolder)
  const [aside] = readdirSync(folder).filter((name) => name.startsWith('job.json.unreadable-'))
  expect(aside).toBeDefined()
  await expect(notice).toContainText(`The record of job ${jobId} is damaged, so that job will not resume.`)
  await expect(notice).toContainText(
    'it says what you paid for the job, and the job’s results are in the same folder.',
  )
  await expect(notice.locator('code')).toHaveText(join(folder, aside!))
  // Slid in whole before the picture is taken.
  await expect(notice).toBeInViewport({ ratio: 1 })
  await app.waitForTimeout(500)
  await new ShellPage(app).screenshot('job-set-aside')

  // Said once per start: the page reloaded does not say it again.
  await app.reload()
  await expect(app.locator('[data-test="sidebar"]')).toBeVisible()
  await app.waitForTimeout(1000)
  await expect(app.locator('.n-notification')).toHaveCount(0)
})
